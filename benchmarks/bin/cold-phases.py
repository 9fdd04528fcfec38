#!/usr/bin/env python3
"""Where one cold start's time goes, phase by phase: wall time and CPU time per thread group.

Used by cold-start.sh (COLD_START_PHASES=1). Follows the runtime JVM that the process PARENT (the
unshare of cold-start.sh) execs, from its start to the first 200 of GET /hello on PORT: every
SAMPLE_MS it reads the CPU time of each of the JVM's threads (/proc/PID/task/*/stat, by thread
name) and tries the request. Phase boundaries come from the JVM's own record: the first class
the main thread loads at each step (CLASS_LOG, written by -Xlog:class+load with the uptime and tid
decorations) and the runtime's start line in LOG (its JSON log). The sampling costs the machine a
few per cent of a core; the timed runs of cold-start.sh do not sample.
  usage: cold-phases.py PARENT_PID PORT CLASS_LOG LOG
"""
import datetime
import json
import os
import re
import socket
import sys
import time

HZ = os.sysconf("SC_CLK_TCK")
SAMPLE_MS = 20

# (phase, what ends it): the first class the main thread loads at the next step ("class:" a
# regex; classes the runtime loads ahead on its own thread cannot mark a step), a log line
# ("log:" a regex on its message, some at Jetty's debug level: cold-start.sh's logging.properties),
# or "200". A boundary that does not occur (an app without JSP) merges its phase into the next.
PHASES = [
    ("JVM start: archive mapped, JDK start-up", r"class:dev\.aerun\.main\.Main"),
    ("launcher: options, descriptor, app checks, EE class loader", r"log:^Deploying "),
    ("webapp assembled, server starting", r"log:^preConfigure with "),
    ("descriptors (webdefault, web.xml, fragments), jars' META-INF", r"log:^configure \S*AnnotationConfiguration"),
    ("annotation scan (on pool threads)", r"log:^Annotation scanning elapsed"),
    ("rest of configure; context start up to the JSP initializer", r"class:org\.apache\.tomcat\.util\.descriptor\.tld\.TldParser"),
    ("JSP initializer (TLDs parsed), app's initializers and listeners", r"class:org\.apache\.jasper\.compiler\.JspRuntimeContext"),
    ("servlets initialised (JSP servlet, load-on-startup), connector open", r"log: - started in \d+ ms"),
    ("first request to its 200", "200"),
]
GROUPS = [
    ("main", lambda n: n == "java"),
    ("C2", lambda n: n.startswith("C2 ")),
    ("C1", lambda n: n.startswith("C1 ")),
    ("GC", lambda n: n.startswith(("GC ", "G1 ", "VM Thread"))),
    ("pool", lambda n: n.startswith("aerun-") and not n.startswith("aerun-preload")),
    ("preload", lambda n: n.startswith("aerun-preload")),
]


def boottime():
    return time.clock_gettime(time.CLOCK_BOOTTIME)


def jvm_of(parent):
    try:
        with open(f"/proc/{parent}/task/{parent}/children") as f:
            kids = f.read().split()
        for kid in kids:
            with open(f"/proc/{kid}/comm") as f:
                if f.read().strip() == "java":
                    return int(kid)
    except OSError:
        pass
    return None


def threads(pid):
    cpu = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        cpu[(tid, name)] = (int(fields[11]) + int(fields[12])) * 1000 / HZ
    return cpu


def ok(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return b" 200 " in s.recv(64)
    except OSError:
        return False


def main(parent, port, class_log, log):
    pid = None
    while pid is None:
        pid = jvm_of(parent)
        time.sleep(0.002)
    with open(f"/proc/{pid}/stat") as f:
        start = int(f.read().rsplit(")", 1)[1].split()[19]) / HZ  # boot time, in seconds
    samples, seen = [(0.0, {})], {}  # nothing ran before the JVM started
    while True:
        now = boottime()
        seen.update(threads(pid))  # a thread that ended keeps its last reading
        samples.append(((now - start) * 1000, dict(seen)))
        if ok(port):
            break
        time.sleep(SAMPLE_MS / 1000)
    end = (boottime() - start) * 1000
    seen.update(threads(pid))
    samples.append((end, dict(seen)))
    ends = boundaries(class_log, log, start, end)
    report(ends, samples)


def boundaries(class_log, log, start, end):
    loads = []  # (ms, tid, class)
    with open(class_log) as f:
        for line in f:
            m = re.match(r"\[(\d+\.\d+)s\]\[(\d+) *\] (\S+) source:", line)
            if m:
                loads.append((float(m.group(1)) * 1000, m.group(2), m.group(3)))
    main_tid = next((t for _, t, c in loads if c == "dev.aerun.main.Main"), None)
    lines = []  # (ms since the JVM's start, message)
    epoch_minus_boot = time.time() - boottime()
    with open(log) as f:
        for line in f:
            try:
                entry = json.loads(line)
                when = datetime.datetime.fromisoformat(entry["time"][:26].rstrip("Z") + "+00:00")
            except (ValueError, KeyError):
                continue
            ms = (when.timestamp() - epoch_minus_boot - start) * 1000
            lines.append((ms, entry.get("message", "")))
    ends, after = [], 0.0
    for name, marker in PHASES:
        kind, _, pattern = marker.partition(":")
        if kind == "class":
            found = (ms for ms, t, c in loads if t == main_tid and re.fullmatch(pattern, c))
        elif kind == "log":
            found = (ms for ms, message in lines if re.search(pattern, message))
        else:
            found = iter([end])
        at = next((ms for ms in found if ms >= after), None)
        ends.append((name, at))
        if at is not None:
            after = at
    return ends


def cpu_at(samples, ms):
    """Each group's CPU time at ms, interpolated between the samples around it."""
    def grouped(cpu):
        out = {g: 0.0 for g, _ in GROUPS}
        out["other"] = 0.0
        for (_, name), t in cpu.items():
            for g, match in GROUPS:
                if match(name):
                    out[g] += t
                    break
            else:
                out["other"] += t
        return out

    before = max((s for s in samples if s[0] <= ms), key=lambda s: s[0], default=samples[0])
    after = min((s for s in samples if s[0] >= ms), key=lambda s: s[0], default=samples[-1])
    a, b = grouped(before[1]), grouped(after[1])
    span = after[0] - before[0]
    w = 0 if span <= 0 else (ms - before[0]) / span
    return {g: a[g] + (b[g] - a[g]) * w for g in a}


def report(ends, samples):
    cols = [g for g, _ in GROUPS] + ["other"]
    print(
        f"{'phase':66s} {'ends at':>8s} {'wall ms':>8s} {'CPU ms':>7s} "
        + " ".join(f"{c:>7s}" for c in cols)
    )
    prev_ms, prev_cpu, pending = 0.0, cpu_at(samples, 0.0), []
    total = cpu_at(samples, samples[-1][0])
    for name, at in ends:
        pending.append(name)
        if at is None:
            continue
        cpu = cpu_at(samples, at)
        diff = {c: cpu[c] - prev_cpu[c] for c in cols}
        label = " + ".join(pending)
        print(
            f"{label[:66]:66s} {at:8.0f} {at - prev_ms:8.0f} {sum(diff.values()):7.0f} "
            + " ".join(f"{diff[c]:7.0f}" for c in cols)
        )
        prev_ms, prev_cpu, pending = at, cpu, []
    print(
        f"{'total, JVM start to the first 200':66s} {'':8s} {prev_ms:8.0f} {sum(total.values()):7.0f} "
        + " ".join(f"{total[c]:7.0f}" for c in cols)
    )


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4])
