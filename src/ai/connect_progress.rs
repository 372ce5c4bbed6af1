//! A layer around the HTTP client's connector: while a new connection is being made
//! (TCP, then TLS), the newest request shows as connecting; a request that reuses a
//! pooled connection goes straight to waiting for its first byte.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::ai::wait::{Waiting, set_waiting};

/// Wraps the connector in [`Marked`].
#[derive(Debug, Clone, Copy, Default)]
pub struct MarkConnecting;

impl<S> tower_layer::Layer<S> for MarkConnecting {
    type Service = Marked<S>;

    fn layer(&self, inner: S) -> Marked<S> {
        Marked(inner)
    }
}

/// The connector, marking the time a connection takes as [`Waiting::Connecting`].
#[derive(Debug, Clone)]
pub struct Marked<S>(S);

type Connecting<R, E> = Pin<Box<dyn Future<Output = Result<R, E>> + Send>>;

impl<S, Request> tower_service::Service<Request> for Marked<S>
where
    S: tower_service::Service<Request>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Connecting<S::Response, S::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        set_waiting(Waiting::Connecting);
        let connecting = self.0.call(request);
        Box::pin(async move {
            let connection = connecting.await;
            set_waiting(Waiting::FirstByte);
            connection
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::wait::{ProgressGuard, progress};
    use tower_layer::Layer;
    use tower_service::Service;

    /// A connector whose connection is made when `open` says so.
    #[derive(Clone)]
    struct Gate(std::sync::Arc<tokio::sync::Notify>);

    impl Service<()> for Gate {
        type Response = &'static str;
        type Error = ();
        type Future = Pin<Box<dyn Future<Output = Result<&'static str, ()>> + Send>>;

        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), ()>> {
            Poll::Ready(Ok(()))
        }

        fn call(&mut self, _: ()) -> Self::Future {
            let open = self.0.clone();
            Box::pin(async move {
                open.notified().await;
                Ok("connection")
            })
        }
    }

    // One test for the process-wide progress, so no other test changes it meanwhile.
    #[tokio::test]
    async fn the_newest_request_shows_connecting_then_waiting_for_its_first_byte() {
        let older = ProgressGuard::begin("http://127.0.0.1:4000/v1/chat");
        let newest = ProgressGuard::begin("https://api.example.com/v1");
        assert_eq!(progress().unwrap().host, "api.example.com");
        drop(older);
        assert_eq!(progress().unwrap().waiting, Waiting::FirstByte);

        let open = std::sync::Arc::new(tokio::sync::Notify::new());
        let mut connector = MarkConnecting.layer(Gate(open.clone()));
        let connecting = tokio::spawn(connector.call(()));
        tokio::task::yield_now().await;
        assert_eq!(progress().unwrap().waiting, Waiting::Connecting);
        open.notify_one();
        assert_eq!(connecting.await.unwrap(), Ok("connection"));
        assert_eq!(progress().unwrap().waiting, Waiting::FirstByte);

        drop(newest);
        assert_eq!(progress(), None);
    }
}
