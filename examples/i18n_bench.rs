//! Times the translation layer: `t()` for a cached key (plain and with a placeholder and a
//! plural), switching locale, and parsing every shipped locale pack.
//!
//! Run with `cargo run --release --example i18n_bench`.

use std::hint::black_box;
use std::time::Instant;

use pi::i18n::{self, Arg};

fn median_ns(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
    samples[samples.len() / 2]
}

/// Median nanoseconds per call of `f`, over 51 batches of `batch` calls.
fn per_call(batch: u32, mut f: impl FnMut()) -> f64 {
    let samples = (0..51)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..batch {
                f();
            }
            start.elapsed().as_nanos() as f64 / f64::from(batch)
        })
        .collect();
    median_ns(samples)
}

fn main() {
    let key = "pi.lang.title";
    let plain = per_call(20_000, || {
        black_box(i18n::t(black_box(key), &[]));
    });
    let with_args = per_call(20_000, || {
        black_box(i18n::t(
            black_box("pi.lang.current"),
            &[("name", Arg::from("English")), ("tag", Arg::from("en"))],
        ));
    });
    let missing = per_call(20_000, || {
        black_box(i18n::t(black_box("pi.no.such.key"), &[]));
    });
    let load = per_call(20, || {
        black_box(i18n::builtin_registry("zh-TW"));
    });
    let switch = per_call(200, || {
        i18n::set_locale(black_box("zh-TW"));
        i18n::set_locale(black_box("en"));
    }) / 2.0;
    println!("t() cached key:            {plain:>10.0} ns (target <= 150 ns)");
    println!("t() with two placeholders: {with_args:>10.0} ns");
    println!("t() unknown key:           {missing:>10.0} ns");
    println!("switch locale:             {:>10.1} us", switch / 1000.0);
    println!(
        "load all shipped locales:  {:>10.2} ms (target <= 3 ms)",
        load / 1e6
    );
}
