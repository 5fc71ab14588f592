#!/usr/bin/env python3
"""chrome_batch.py - the DOMs of several pages from one headless Chromium (the DevTools protocol over
--remote-debugging-pipe), as `chromium --headless --dump-dom --virtual-time-budget=MS URL` gives each: one browser
start instead of one per page.
  chrome_batch.py CHROME PROFILE_DIR WIDTH HEIGHT BUDGET_MS URL OUT [URL OUT ...]
Each page gets a fresh document (about:blank between pages, as a hash change alone would not reload it), loads in
real time, then runs its timers on virtual time until BUDGET_MS is spent; OUT gets its DOM. Exit status 0 when
every OUT was written; a page that fails leaves its OUT missing and a line on stderr. CB_DEBUG=1 logs the protocol."""
import json, os, subprocess, sys

chrome, prof, width, height, budget = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
jobs = list(zip(sys.argv[6::2], sys.argv[7::2]))
to_chrome_r, to_chrome_w = os.pipe()
from_chrome_r, from_chrome_w = os.pipe()

def child():
    os.dup2(to_chrome_r, 3)
    os.dup2(from_chrome_w, 4)

proc = subprocess.Popen([chrome, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                         "--no-first-run", f"--user-data-dir={prof}", f"--window-size={width},{height}",
                         "--remote-debugging-pipe", "about:blank"],
                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.path.join(prof, "log"), "w"),
                        preexec_fn=child, pass_fds=(3, 4))
os.close(to_chrome_r)
os.close(from_chrome_w)
out = os.fdopen(to_chrome_w, "wb", buffering=0)
inp = os.fdopen(from_chrome_r, "rb", buffering=0)
buf = b""
next_id = 0
pending_events = []

import time
T0 = time.time()
def log(*a):
    if os.environ.get("CB_DEBUG"): print(f"{time.time()-T0:7.2f}", *a, file=sys.stderr)

def read_msg():
    global buf
    while b"\0" not in buf:
        chunk = inp.read(1 << 16)
        if not chunk:
            raise EOFError("chromium closed the pipe")
        buf += chunk
    msg, buf = buf.split(b"\0", 1)
    m = json.loads(msg)
    log("<-", m.get("id"), m.get("method"), str(m)[:150] if "error" in m else "")
    return m

def call(method, params=None, session=None):
    """Send a command and wait for its answer (events read meanwhile are kept)."""
    global next_id
    next_id += 1
    m = {"id": next_id, "method": method, "params": params or {}}
    if session:
        m["sessionId"] = session
    out.write(json.dumps(m).encode() + b"\0")
    while True:
        r = read_msg()
        if r.get("id") == next_id:
            if "error" in r:
                raise RuntimeError(f"{method}: {r['error']}")
            return r.get("result", {})
        pending_events.append(r)

def wait_event(name, session):
    while True:
        for i, e in enumerate(pending_events):
            if e.get("method") == name and e.get("sessionId") == session:
                return pending_events.pop(i)
        pending_events.append(read_msg())

failed = 0
try:
    tid = next(t["targetId"] for t in call("Target.getTargets")["targetInfos"] if t["type"] == "page")
    sid = call("Target.attachToTarget", {"targetId": tid, "flatten": True})["sessionId"]
    call("Page.enable", session=sid)
    call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                "mobile": False}, sid)
    for url, dest in jobs:
        try:
            # a fresh document for every page (a new hash alone would not reload it), then the budget from its start
            call("Page.navigate", {"url": "about:blank"}, sid)
            wait_event("Page.loadEventFired", sid)
            pending_events[:] = []
            call("Page.navigate", {"url": url}, sid)
            wait_event("Page.loadEventFired", sid)
            # then the page's timers run on virtual time until the budget is spent, as --virtual-time-budget
            call("Emulation.setVirtualTimePolicy", {"policy": "pauseIfNetworkFetchesPending", "budget": budget}, sid)
            wait_event("Emulation.virtualTimeBudgetExpired", sid)
            r = call("Runtime.evaluate", {"expression": "(document.doctype ? '<!DOCTYPE html>\\n' : '') + "
                                                        "document.documentElement.outerHTML",
                                          "returnByValue": True}, sid)
            if "value" not in r.get("result", {}):
                raise RuntimeError(f"no DOM: {str(r)[:300]}")
            with open(dest, "w") as f:
                f.write(r["result"]["value"] + "\n")
            # virtual time stays paused after the budget: let time run again for the next page's load
            call("Emulation.setVirtualTimePolicy", {"policy": "advance"}, sid)
            pending_events[:] = []
        except (RuntimeError, KeyError) as e:
            print(f"chrome_batch: {url}: {e}", file=sys.stderr)
            failed += 1
finally:
    try:
        call("Browser.close")
    except Exception:
        pass
    proc.wait(timeout=30)
sys.exit(1 if failed else 0)
