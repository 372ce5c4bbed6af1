#!/usr/bin/env python3
"""Drive headless Chromium through the DevTools protocol, with the standard library only.

    cdp.py URL [--width W] [--height H] [--wait-ready] < steps.json

Opens URL in a fresh headless Chromium (private profile, every proxy pointed at a closed
port so nothing can leave the machine), runs the steps read from standard input and prints
one JSON object: {"results": [...], "console_errors": [...], "requests": [...]}.

A step is a JavaScript expression (a string, evaluated in the page; a promise is awaited;
the result is returned by value) or {"screenshot": "out.png"} or {"sleep_ms": N} or
{"cdp": "Domain.method", "params": {...}} (a DevTools command for the page, e.g.
Emulation.setEmulatedMedia).
console_errors holds console.error calls, uncaught exceptions and browser log errors;
requests holds the URL of every request the page made (the page itself included).
--wait-ready waits for pi's exported page to say it is drawn (`<body data-ready="1">`).

Also used as a module by scripts/bench.py (first_paint) and scripts/export-screens.sh.
"""

import base64
import json
import os
import re
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("headless Chromium is needed (Debian: apt-get install chromium)")


class WebSocket:
    """A client WebSocket (RFC 6455) over a plain TCP socket: text frames, masked."""

    def __init__(self, url, timeout=60):
        m = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        self.sock = socket.create_connection((m.group(1), int(m.group(2))), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {m.group(3)} HTTP/1.1\r\nHost: {m.group(1)}:{m.group(2)}\r\n"
                   "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(request.encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the browser closed the connection")
            self.buf += chunk
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(head.decode(errors="replace"))

    def send(self, text):
        data = text.encode()
        header = bytearray([0x81])
        n = len(data)
        if n < 126:
            header.append(0x80 | n)
        elif n < 1 << 16:
            header.append(0x80 | 126)
            header += n.to_bytes(2, "big")
        else:
            header.append(0x80 | 127)
            header += n.to_bytes(8, "big")
        mask = os.urandom(4)
        header += mask
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(bytes(header) + masked)

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("the browser closed the connection")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = int.from_bytes(self._read(2), "big")
            elif n == 127:
                n = int.from_bytes(self._read(8), "big")
            payload = self._read(n)
            opcode = b0 & 0x0F
            if opcode == 0x8:
                raise ConnectionError("the browser closed the connection")
            if opcode in (0x9, 0xA):  # ping, pong: nothing to answer for a short session
                continue
            message += payload
            if b0 & 0x80:
                return message.decode()


class Browser:
    """One headless Chromium with one page; events are kept as they arrive."""

    def __init__(self, width=1400, height=1000, timeout=60):
        self.profile = tempfile.mkdtemp(prefix="pi-cdp-")
        self.proc = subprocess.Popen(
            [chromium_binary(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--disable-extensions",
             "--proxy-server=127.0.0.1:9", "--proxy-bypass-list=<-loopback>", "--hide-scrollbars",
             f"--user-data-dir={self.profile}", "--remote-debugging-port=0", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        url = self._devtools_url()
        self.ws = WebSocket(url, timeout)
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=True)

    def _devtools_url(self):
        deadline = time.time() + 30
        line = b""
        while time.time() < deadline:
            ready, _, _ = select.select([self.proc.stderr], [], [], 0.5)
            if not ready:
                continue
            byte = self.proc.stderr.read1(4096) if hasattr(self.proc.stderr, "read1") else self.proc.stderr.read(1)
            if not byte:
                break
            line += byte
            m = re.search(rb"DevTools listening on (ws://\S+)", line)
            if m:
                return m.group(1).decode()
        self.close()
        raise SystemExit("Chromium did not start: " + line.decode(errors="replace")[-400:])

    def call(self, method, params=None, session=False, timeout=300):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        self.ws.send(json.dumps(msg))
        deadline = time.time() + timeout
        while time.time() < deadline:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)
        raise TimeoutError(method)

    def wait_event(self, method, timeout=60):
        for i, e in enumerate(self.events):
            if e["method"] == method:
                return self.events.pop(i)
        deadline = time.time() + timeout
        while time.time() < deadline:
            e = json.loads(self.ws.recv())
            if e.get("method") == method:
                return e
            if "method" in e:
                self.events.append(e)
        raise TimeoutError(method)

    def open(self, url):
        self.call("Page.navigate", {"url": url}, session=True)
        self.wait_event("Page.loadEventFired")

    def wait_for(self, expression, timeout_ms=30000):
        """Wait until `expression` is true in the page."""
        self.evaluate("""new Promise((resolve, reject) => {
            const until = Date.now() + %d;
            const look = () => {
              if (%s) resolve(true);
              else if (Date.now() > until) reject(new Error('timed out waiting for: ' + %s));
              else setTimeout(look, 10);
            };
            look();
        })""" % (timeout_ms, expression, json.dumps(expression)))

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                           "returnByValue": True}, session=True)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise RuntimeError(d.get("exception", {}).get("description") or d.get("text"))
        return r.get("result", {}).get("value")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=True)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def console_errors(self):
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif e["method"] == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append(d.get("exception", {}).get("description") or d.get("text", "exception"))
            elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(p["entry"].get("text", ""))
        return out

    def requests(self):
        return [e["params"]["request"]["url"] for e in self.events
                if e["method"] == "Network.requestWillBeSent"]

    def drain(self, ms):
        """Collect events for `ms` milliseconds."""
        self.evaluate(f"new Promise(r => setTimeout(r, {int(ms)}))")

    def close(self):
        try:
            self.proc.kill()
            self.proc.wait(timeout=10)
        except Exception:
            pass
        shutil.rmtree(self.profile, ignore_errors=True)


def first_paint(url, width=1400, height=1000):
    """Milliseconds from navigation start to the first contentful paint of `url`."""
    b = Browser(width, height)
    try:
        b.open(url)
        return b.evaluate("""new Promise(resolve => {
            const look = () => {
              const p = performance.getEntriesByName('first-contentful-paint')[0];
              if (p) resolve(p.startTime); else setTimeout(look, 20);
            };
            look();
        })""")
    finally:
        b.close()


MESSAGES = "#messages .msg, #messages .user-message, #messages .assistant-message"


def content_paint(url, selector=MESSAGES, width=1400, height=1000, timeout=60):
    """Milliseconds from navigation start to the end of the first frame that paints an
    element matching `selector` (a message of the conversation), and to the first
    contentful paint, and (pi's page) to the whole session drawn:
    {"content": ms, "fcp": ms, "ready": ms or None}. Raises when the page logs an error before
    that, or after `timeout` seconds."""
    b = Browser(width, height, timeout)
    watch = """(() => {
        const look = () => {
          if (document.querySelector(%s)) {
            // A task queued from a frame's callback runs once that frame is painted.
            setTimeout(() => { window.__contentPaint = performance.now(); }, 0);
          } else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
        // pi's page says when the whole session is unpacked and the tree drawn.
        new MutationObserver((changes, obs) => {
          if (document.body && document.body.dataset.ready === '1') {
            window.__ready = performance.now();
            obs.disconnect();
          }
        }).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-ready']});
    })();""" % json.dumps(selector)
    try:
        b.call("Page.addScriptToEvaluateOnNewDocument", {"source": watch}, session=True)
        b.open(url)
        deadline = time.time() + timeout
        while time.time() < deadline:
            got = b.evaluate("""(() => {
                const p = performance.getEntriesByName('first-contentful-paint')[0];
                const ready = window.__ready || null;
                const painted = p && window.__contentPaint;
                const settled = ready || !document.querySelector('#session-head');
                return painted && settled ? {content: window.__contentPaint, fcp: p.startTime, ready} : null;
            })()""")
            if got:
                return got
            errors = b.console_errors()
            if errors:
                raise RuntimeError("the page failed: " + errors[0].splitlines()[0])
            time.sleep(0.05)
        raise TimeoutError(f"no message painted in {timeout} s")
    finally:
        b.close()


def main():
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    width = int(args[args.index("--width") + 1]) if "--width" in args else 1400
    height = int(args[args.index("--height") + 1]) if "--height" in args else 1000
    steps = json.load(sys.stdin)
    b = Browser(width, height)
    results = []
    try:
        b.open(args[0])
        if "--wait-ready" in args:
            b.wait_for("document.body && document.body.dataset.ready === '1'")
        for step in steps:
            try:
                if isinstance(step, str):
                    results.append(b.evaluate(step))
                elif "screenshot" in step:
                    b.screenshot(step["screenshot"])
                    results.append(step["screenshot"])
                elif "cdp" in step:
                    results.append(b.call(step["cdp"], step.get("params", {}), session=True))
                elif "sleep_ms" in step:
                    b.drain(step["sleep_ms"])
                    results.append(None)
            except RuntimeError as e:
                results.append({"error": str(e)})
        b.drain(100)
        print(json.dumps({"results": results, "console_errors": b.console_errors(), "requests": b.requests()}))
    finally:
        b.close()


if __name__ == "__main__":
    main()
