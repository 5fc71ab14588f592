#!/usr/bin/env python3
"""make_fixtures.py - writes tests/data/view/functional.json and timing.json, the run reports (with a "view"
member, docs/view-format.md) that tests/cli/view_page.sh draws the page from.

The data is made up, not collected by the simulator: two kernels of kernels.cu (the seed's vecAdd of N = 70 in two
blocks of 64 threads, and a sum of the x of 1200 points with an interleaved shared-memory tree) on a small
invented GPU of 2 SMs x 4 sub-partitions. Each warp's instruction trace follows the kernel's control flow; in
timing mode a toy scheduler (lowest-numbered eligible warp, fixed latencies, barriers) places the blocks, issues
the warps and records why each one waited, so the timeline, the blocks, the stalls and the counts agree with each
other. Run it again after changing it: python3 tests/data/view/make_fixtures.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

SOURCE = r"""// kernels.cu - the two kernels warpsim's view page is tested with
#include <cstdio>

// c[i] = a[i] + b[i], one thread per element
__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

struct P { float x, y; };

// each block sums the x of 128 points: an interleaved tree in shared memory
__global__ void sumX(const P *p, float *out, int n)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? p[i].x : 0.0f;      // x values 8 bytes apart: 8 sectors per warp
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {
        int k = 2 * d * t;             // interleaved: bank conflicts
        if (k < blockDim.x)
            s[k] += s[k + d];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

int main()
{
    const int n = 70, m = 1200;
    float *a, *b, *c, *out;
    P *p;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&c, n * sizeof(float));
    cudaMalloc(&p, m * sizeof(P));
    cudaMalloc(&out, 10 * sizeof(float));
    cudaStream_t s1;
    cudaStreamCreate(&s1);
    cudaEvent_t done;
    cudaEventCreate(&done);
    // copies in, then the two kernels on two streams, ordered by the event
    vecAdd<<<2, 64>>>(a, b, c, n);
    cudaEventRecord(done, 0);
    cudaStreamWaitEvent(s1, done, 0);
    sumX<<<10, 128, 0, s1>>>(p, out, m);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
""".split("\n")[:-1]

DEVICE = {"name": "mini", "full_name": "warpsim fixture GPU (2 SMs)", "sm_count": 2, "subpartitions": 4,
          "warp_size": 32, "clock_mhz": 1000, "fp32_tflops": 0.256, "mem_bandwidth_gbs": 200, "banks": 32,
          "bank_bytes": 4, "max_warps_per_sm": 16, "max_threads_per_sm": 512, "max_blocks_per_sm": 4,
          "regs_per_sm": 16384, "smem_per_sm": 16384}

FULL = 0xFFFFFFFF
A, B, C, PBASE, OUT = 0x7f0000000000, 0x7f0000000200, 0x7f0000000400, 0x7f0000001000, 0x7f0000004000

# ---- the kernels: (pc, text, line, pipe, class, producers); class: param, alu, gld, gst, sld, sst, bra, bar, ret
VECADD = [
    (0, "ld.param.u32 %r5, [vecAdd_param_3]", 5, "LSU", "param", []),
    (1, "mov.u32 %r1, %ctaid.x", 7, "ALU", "alu", []),
    (2, "mov.u32 %r2, %ntid.x", 7, "ALU", "alu", []),
    (3, "mov.u32 %r3, %tid.x", 7, "ALU", "alu", []),
    (4, "mad.lo.s32 %r4, %r1, %r2, %r3", 7, "FMA", "alu", [1, 2, 3]),
    (5, "setp.ge.s32 %p1, %r4, %r5", 8, "ALU", "alu", [0, 4]),
    (6, "@%p1 bra $L__BB0_2", 8, "CBU", "bra", [5]),
    (7, "ld.param.u64 %rd1, [vecAdd_param_0]", 9, "LSU", "param", []),
    (8, "ld.param.u64 %rd2, [vecAdd_param_1]", 9, "LSU", "param", []),
    (9, "ld.param.u64 %rd3, [vecAdd_param_2]", 9, "LSU", "param", []),
    (10, "mul.wide.s32 %rd4, %r4, 4", 9, "FMA", "alu", [4]),
    (11, "add.s64 %rd5, %rd1, %rd4", 9, "ALU", "alu", [7, 10]),
    (12, "add.s64 %rd6, %rd2, %rd4", 9, "ALU", "alu", [8, 10]),
    (13, "ld.global.f32 %f1, [%rd5]", 9, "LSU", "gld", [11]),
    (14, "ld.global.f32 %f2, [%rd6]", 9, "LSU", "gld", [12]),
    (15, "add.f32 %f3, %f1, %f2", 9, "FMA", "alu", [13, 14]),
    (16, "add.s64 %rd7, %rd3, %rd4", 9, "ALU", "alu", [9, 10]),
    (17, "st.global.f32 [%rd7], %f3", 9, "LSU", "gst", [15, 16]),
    (18, "ret", 10, "CBU", "ret", []),
]
SUMX = [
    (0, "ld.param.u64 %rd1, [sumX_param_0]", 15, "LSU", "param", []),
    (1, "ld.param.u32 %r6, [sumX_param_2]", 15, "LSU", "param", []),
    (2, "mov.u32 %r1, %tid.x", 18, "ALU", "alu", []),
    (3, "mov.u32 %r2, %ctaid.x", 19, "ALU", "alu", []),
    (4, "mov.u32 %r3, %ntid.x", 19, "ALU", "alu", []),
    (5, "mad.lo.s32 %r4, %r2, %r3, %r1", 19, "FMA", "alu", [2, 3, 4]),
    (6, "setp.ge.s32 %p1, %r4, %r6", 20, "ALU", "alu", [1, 5]),
    (7, "mov.f32 %f6, 0f00000000", 20, "ALU", "alu", []),
    (8, "@%p1 bra $L__BB1_2", 20, "CBU", "bra", [6]),
    (9, "mul.wide.s32 %rd2, %r4, 8", 20, "FMA", "alu", [5]),
    (10, "add.s64 %rd3, %rd1, %rd2", 20, "ALU", "alu", [0, 9]),
    (11, "ld.global.f32 %f6, [%rd3]", 20, "LSU", "gld", [10]),
    (12, "shl.b32 %r7, %r1, 2", 20, "ALU", "alu", [2]),
    (13, "mov.u32 %r8, s", 20, "ALU", "alu", []),
    (14, "add.s32 %r9, %r8, %r7", 20, "ALU", "alu", [12, 13]),
    (15, "st.shared.f32 [%r9], %f6", 20, "LSU", "sst", [14, 11, 7]),
    (16, "bar.sync 0", 21, "CBU", "bar", []),
    (17, "mov.u32 %r10, 1", 22, "ALU", "alu", []),
    (18, "mul.lo.s32 %r11, %r10, %r1", 23, "FMA", "alu", [17, 31, 2]),
    (19, "shl.b32 %r12, %r11, 1", 23, "ALU", "alu", [18]),
    (20, "setp.ge.u32 %p2, %r12, %r3", 24, "ALU", "alu", [19, 4]),
    (21, "@%p2 bra $L__BB1_5", 24, "CBU", "bra", [20]),
    (22, "shl.b32 %r13, %r12, 2", 25, "ALU", "alu", [19]),
    (23, "add.s32 %r14, %r8, %r13", 25, "ALU", "alu", [13, 22]),
    (24, "shl.b32 %r15, %r10, 2", 25, "ALU", "alu", [17, 31]),
    (25, "add.s32 %r16, %r14, %r15", 25, "ALU", "alu", [23, 24]),
    (26, "ld.shared.f32 %f2, [%r16]", 25, "LSU", "sld", [25]),
    (27, "ld.shared.f32 %f3, [%r14]", 25, "LSU", "sld", [23]),
    (28, "add.f32 %f4, %f3, %f2", 25, "FMA", "alu", [26, 27]),
    (29, "st.shared.f32 [%r14], %f4", 25, "LSU", "sst", [28, 23]),
    (30, "bar.sync 0", 26, "CBU", "bar", []),
    (31, "shl.b32 %r10, %r10, 1", 22, "ALU", "alu", [17, 31]),
    (32, "setp.lt.u32 %p3, %r10, %r3", 22, "ALU", "alu", [31, 4]),
    (33, "@%p3 bra $L__BB1_3", 22, "CBU", "bra", [32]),
    (34, "setp.ne.s32 %p4, %r1, 0", 28, "ALU", "alu", [2]),
    (35, "@%p4 bra $L__BB1_8", 28, "CBU", "bra", [34]),
    (36, "ld.shared.f32 %f5, [s]", 29, "LSU", "sld", [13]),
    (37, "ld.param.u64 %rd4, [sumX_param_1]", 29, "LSU", "param", []),
    (38, "mul.wide.u32 %rd5, %r2, 4", 29, "FMA", "alu", [3]),
    (39, "add.s64 %rd6, %rd4, %rd5", 29, "ALU", "alu", [37, 38]),
    (40, "st.global.f32 [%rd6], %f5", 29, "LSU", "gst", [39, 36]),
    (41, "ret", 30, "CBU", "ret", []),
]
LATENCY = {"param": 12, "alu": 4, "gld": 180, "sld": 24, "gst": 1, "sst": 1, "bra": 6, "bar": 1, "ret": 1}
REASON = {"param": "short_scoreboard", "alu": "wait", "gld": "long_scoreboard", "sld": "short_scoreboard",
          "bra": "wait"}


def mask(lanes):
    m = 0
    for l in lanes:
        m |= 1 << l
    return m


def lanes_of(m):
    return [l for l in range(32) if m >> l & 1]


def step(pc, active, execm=None, mem=None):
    """one issued warp instruction: pc, active mask, exec mask, memory lanes [[lane, address]]"""
    return {"pc": pc, "active": active, "exec": active if execm is None else execm, "mem": mem}


def trace_vecadd(b, w, n=70):
    """vecAdd's instructions for warp w of block b"""
    ids = [b * 64 + w * 32 + l for l in range(32)]
    valid = mask(l for l in range(32) if ids[l] < n)
    s = [step(pc, FULL) for pc in range(6)]
    s.append(step(6, FULL, FULL & ~valid))
    if valid:
        v = lanes_of(valid)
        for pc in range(7, 18):
            mem = None
            if pc == 13: mem = [[l, A + 4 * ids[l]] for l in v]
            if pc == 14: mem = [[l, B + 4 * ids[l]] for l in v]
            if pc == 17: mem = [[l, C + 4 * ids[l]] for l in v]
            s.append(step(pc, valid, mem=mem))
    s.append(step(18, FULL))
    return s


def trace_sumx(b, w, n=1200):
    """sumX's instructions for warp w of block b"""
    t = [w * 32 + l for l in range(32)]
    ids = [b * 128 + x for x in t]
    valid = mask(l for l in range(32) if ids[l] < n)
    s = [step(pc, FULL) for pc in range(8)]
    s.append(step(8, FULL, FULL & ~valid))
    if valid:
        v = lanes_of(valid)
        s.append(step(9, valid))
        s.append(step(10, valid))
        s.append(step(11, valid, mem=[[l, PBASE + 8 * ids[l]] for l in v]))
    for pc in range(12, 18):
        s.append(step(pc, FULL, mem=[[l, 4 * t[l]] for l in range(32)] if pc == 15 else None))
    d = 1
    while d < 128:
        act = mask(l for l in range(32) if 2 * d * t[l] < 128)
        s += [step(18, FULL), step(19, FULL), step(20, FULL), step(21, FULL, FULL & ~act)]
        if act:
            al = lanes_of(act)
            for pc in range(22, 30):
                mem = None
                if pc == 26: mem = [[l, 4 * (2 * d * t[l] + d)] for l in al]
                if pc in (27, 29): mem = [[l, 4 * (2 * d * t[l])] for l in al]
                s.append(step(pc, act, mem=mem))
        d *= 2
        s += [step(30, FULL), step(31, FULL), step(32, FULL), step(33, FULL, FULL if d < 128 else 0)]
    zero = mask(l for l in range(32) if t[l] == 0)
    s += [step(34, FULL), step(35, FULL, FULL & ~zero)]
    if zero:
        for pc in range(36, 41):
            mem = None
            if pc == 36: mem = [[0, 0]]
            if pc == 40: mem = [[0, OUT + 4 * b]]
            s.append(step(pc, zero, mem=mem))
    s.append(step(41, FULL))
    return s


def popc(m):
    return bin(m).count("1")


def shared_banks(mem):
    """[[lane, bank, word]], wavefronts, conflicts of one shared-memory request"""
    banks = [[l, (a // 4) % 32, a // 4] for l, a in mem]
    words = {}
    for _, bank, word in banks:
        words.setdefault(bank, set()).add(word)
    wf = max(len(x) for x in words.values())
    return banks, wf, wf - 1


def sectors_of(mem):
    return sorted({a // 32 * 32 for _, a in mem}), sorted({a // 128 * 128 for _, a in mem})


class Kernel:
    def __init__(self, fn, name, insns, grid, block, regs, smem, trace, flops_per_block):
        self.fn, self.name, self.insns, self.grid, self.block = fn, name, insns, grid, block
        self.regs, self.smem, self.trace, self.flops_per_block = regs, smem, trace, flops_per_block
        self.by_pc = {i[0]: i for i in insns}


def occupancy(k):
    threads = k.block
    wpb = (threads + 31) // 32
    lim = {"warps": DEVICE["max_warps_per_sm"] // wpb, "blocks": DEVICE["max_blocks_per_sm"],
           "registers": DEVICE["regs_per_sm"] // (k.regs * threads), "shared_mem": DEVICE["smem_per_sm"] // k.smem
           if k.smem else 0}
    lim["warps"] = min(lim["warps"], DEVICE["max_threads_per_sm"] // threads)
    order = ["warps", "blocks", "registers", "shared_mem"]
    bps = min(v for v in lim.values() if v)
    limiter = next(x for x in order if lim[x] == bps)
    return {"threads_per_block": threads, "registers_per_thread": k.regs, "smem_per_block": k.smem,
            "blocks_per_sm": bps, "limits": lim, "limiter": limiter,
            "occupancy_pct": round(100.0 * bps * wpb / DEVICE["max_warps_per_sm"], 2),
            "waves": round(k.grid / (bps * DEVICE["sm_count"]), 4)}


def simulate(k, bps):
    """the toy timing model: returns per-warp issue cycles and stall intervals, block placement, cycles"""
    wpb = k.block // 32
    warps = {}          # (b, w) -> dict
    blocks = []         # [b, sm, t0, t1]
    sm_slots = {sm: [None] * DEVICE["max_warps_per_sm"] for sm in range(DEVICE["sm_count"])}
    sm_blocks = {sm: [] for sm in range(DEVICE["sm_count"])}
    pending = list(range(k.grid))
    cycle = 0
    retire_at = {}

    def place(sm, b, now):
        slots = sm_slots[sm]
        ws = []
        for w in range(wpb):
            slot = slots.index(None)
            slots[slot] = (b, w)
            wr = {"b": b, "w": w, "sm": sm, "slot": slot, "sp": slot % DEVICE["subpartitions"],
                  "trace": k.trace(b, w), "i": 0, "ready": now + 8, "reason": "wait", "last": {},
                  "t_start": now, "t_end": None, "issues": [], "states": [], "bar": False}
            warps[(b, w)] = wr
            ws.append(wr)
        sm_blocks[sm].append(b)
        blocks.append([b, sm, now, None])

    # first wave: round robin over the SMs
    while pending:
        placed = False
        for sm in range(DEVICE["sm_count"]):
            if pending and len(sm_blocks[sm]) < bps:
                place(sm, pending.pop(0), 0)
                placed = True
        if not placed:
            break
    live = lambda: [w for w in warps.values() if w["t_end"] is None]
    while live():
        # barriers: release a block's warps when every live warp of it waits
        for sm in sm_blocks:
            for b in sm_blocks[sm]:
                bw = [warps[(b, w)] for w in range(wpb) if warps[(b, w)]["t_end"] is None]
                if bw and all(x["bar"] for x in bw):
                    for x in bw:
                        x["bar"] = False
                        x["ready"] = cycle + 2
                        x["reason"] = "barrier"
        for sm in range(DEVICE["sm_count"]):
            for sp in range(DEVICE["subpartitions"]):
                cand = [w for w in live() if w["sm"] == sm and w["sp"] == sp]
                elig = [w for w in cand if not w["bar"] and w["ready"] <= cycle]
                elig.sort(key=lambda w: w["slot"])
                chosen = elig[0] if elig else None
                for w in cand:
                    if w is chosen:
                        continue
                    if w["bar"]:
                        why = "barrier"
                    elif w["ready"] > cycle:
                        why = w["reason"]
                    else:
                        why = "not_selected"
                    st = w["states"]
                    if st and st[-1][1] == cycle and st[-1][2] == why:
                        st[-1][1] = cycle + 1
                    else:
                        st.append([cycle, cycle + 1, why])
                if chosen:
                    w = chosen
                    s = w["trace"][w["i"]]
                    ins = k.by_pc[s["pc"]]
                    w["issues"].append((cycle, s["pc"], s))
                    w["last"][s["pc"]] = cycle
                    w["i"] += 1
                    if w["i"] == len(w["trace"]):
                        w["t_end"] = cycle + 1
                        slot = w["slot"]
                        sm_slots[sm][slot] = None
                        continue
                    if ins[4] == "bar":
                        w["bar"] = True
                    nxt = k.by_pc[w["trace"][w["i"]]["pc"]]
                    ready, reason = cycle + 1, "wait"
                    for p in nxt[5]:
                        if p in w["last"]:
                            cls = k.by_pc[p][4]
                            r = w["last"][p] + LATENCY[cls]
                            if r > ready:
                                ready, reason = r, REASON.get(cls, "wait")
                    w["ready"], w["reason"] = ready, reason
        cycle += 1
        # retire finished blocks, place the next ones
        for blk in blocks:
            if blk[3] is None and all(warps[(blk[0], w)]["t_end"] is not None for w in range(wpb)):
                blk[3] = max(warps[(blk[0], w)]["t_end"] for w in range(wpb)) + 2
                retire_at[blk[0]] = blk[3]
        for sm in range(DEVICE["sm_count"]):
            for b in list(sm_blocks[sm]):
                if b in retire_at and retire_at[b] <= cycle:
                    sm_blocks[sm].remove(b)
            while pending and len(sm_blocks[sm]) < bps:
                place(sm, pending.pop(0), cycle + 6)
    cycles = max(b[3] for b in blocks) + 4
    return warps, blocks, cycles


def build_launch(idx, k, timing):
    occ = occupancy(k)
    wpb = k.block // 32
    traces = {(b, w): k.trace(b, w) for b in range(k.grid) for w in range(wpb)}
    per = {i[0]: {"warp_insts": 0, "active": 0, "exec": 0, "greq": 0, "gsec": 0, "sreq": 0, "swf": 0, "scf": 0,
                  "issue": 0, "stalls": {}} for i in k.insns}
    samples = {}
    gbytes = 0
    for (b, w) in sorted(traces):
        for s in traces[(b, w)]:
            p = per[s["pc"]]
            ins = k.by_pc[s["pc"]]
            p["warp_insts"] += 1
            p["active"] += popc(s["active"])
            p["exec"] += popc(s["exec"])
            if s["mem"] is not None:
                if ins[4] in ("gld", "gst"):
                    sec, lines = sectors_of(s["mem"])
                    p["greq"] += 1
                    p["gsec"] += len(sec)
                    gbytes += 4 * len(s["mem"])
                    if s["pc"] not in samples:
                        samples[s["pc"]] = {"fn": k.fn, "pc": s["pc"], "space": "global",
                                            "op": "load" if ins[4] == "gld" else "store", "bytes_per_lane": 4,
                                            "lanes": s["mem"], "sectors": sec, "lines": lines}
                else:
                    banks, wf, cf = shared_banks(s["mem"])
                    p["sreq"] += 1
                    p["swf"] += wf
                    p["scf"] += cf
                    if s["pc"] not in samples:
                        samples[s["pc"]] = {"fn": k.fn, "pc": s["pc"], "space": "shared",
                                            "op": "load" if ins[4] == "sld" else "store", "bytes_per_lane": 4,
                                            "lanes": s["mem"], "banks": banks, "wavefronts": wf, "conflicts": cf}
    L = {"index": idx, "kernel": k.fn, "name": k.name, "grid": [k.grid, 1, 1], "block": [k.block, 1, 1],
         "dynamic_smem": 0}
    L["warp_insts"] = sum(p["warp_insts"] for p in per.values())
    L["thread_insts"] = sum(p["active"] for p in per.values())
    if timing:
        warps, blocks, cycles = simulate(k, occ["blocks_per_sm"])
        L["cycles"] = cycles
        for wr in warps.values():
            prev_issue = None
            for (c, pc, s) in wr["issues"]:
                per[pc]["issue"] += 1
            # stalls: every waiting cycle counts for the instruction the warp issued next
            j = 0
            issues = wr["issues"]
            for st in wr["states"]:
                t0, t1, why = st
                while j < len(issues) and issues[j][0] < t0:
                    j += 1
                if j < len(issues):
                    pc = issues[j][1]
                    d = per[pc]["stalls"]
                    d[why] = d.get(why, 0) + (t1 - t0)
        resident = sum(wr["t_end"] - wr["t_start"] for wr in warps.values())
        occ["achieved_pct"] = round(100.0 * resident / (cycles * DEVICE["sm_count"] * DEVICE["max_warps_per_sm"]), 2)
    L["occupancy"] = occ
    flops = k.flops_per_block(k.grid)
    peak_f = DEVICE["fp32_tflops"] * 1e12
    peak_b = DEVICE["mem_bandwidth_gbs"] * 1e9
    sectors = sum(p["gsec"] for p in per.values())
    if timing:
        L["roofline"] = {"flops": flops, "dram_bytes": sectors * 32, "seconds": L["cycles"] / (DEVICE["clock_mhz"] * 1e6),
                         "peak_flops": peak_f, "peak_bandwidth": peak_b, "ridge": round(peak_f / peak_b, 3)}
    else:
        L["roofline"] = {"flops": flops, "dram_bytes": gbytes, "peak_flops": peak_f, "peak_bandwidth": peak_b,
                         "ridge": round(peak_f / peak_b, 3)}
    total_issue = sum(p["issue"] for p in per.values())
    ptx = []
    for ins in k.insns:
        pc, text, line, pipe, cls, _ = ins
        p = per[pc]
        n = p["warp_insts"]
        r = {"fn": k.fn, "pc": pc, "text": text, "file": "kernels.cu", "line": line, "pipe": pipe,
             "warp_insts": n, "active_lanes": round(p["active"] / n, 3) if n else 0,
             "exec_lanes": round(p["exec"] / n, 3) if n else 0}
        if cls in ("gld", "gst"):
            r["global"] = {"requests": p["greq"], "sectors": p["gsec"]}
        if cls in ("sld", "sst"):
            r["shared"] = {"requests": p["sreq"], "wavefronts": p["swf"], "conflicts": p["scf"]}
        if timing:
            r["issue_cycles"] = p["issue"]
            r["stalls"] = dict(sorted(p["stalls"].items()))
        ptx.append(r)
    lines = {}
    for r in ptx:
        e = lines.setdefault(r["line"], {"file": "kernels.cu", "line": r["line"], "pcs": [], "warp_insts": 0,
                                         "_act": 0, "_issue": 0, "stalls": {}})
        e["pcs"].append([r["fn"], r["pc"]])
        e["warp_insts"] += r["warp_insts"]
        e["_act"] += r["active_lanes"] * r["warp_insts"]
        for sp in ("global", "shared"):
            if sp in r:
                g = e.setdefault(sp, {kk: 0 for kk in r[sp]})
                for kk, v in r[sp].items():
                    g[kk] += v
        if timing:
            e["_issue"] += r["issue_cycles"]
            for kk, v in r["stalls"].items():
                e["stalls"][kk] = e["stalls"].get(kk, 0) + v
    out = []
    for e in lines.values():
        e["active_lanes"] = round(e.pop("_act") / e["warp_insts"], 3)
        issue = e.pop("_issue")
        if timing:
            e["issue_share_pct"] = round(100.0 * issue / total_issue, 2)
            e["stalls"] = dict(sorted(e["stalls"].items()))
        else:
            del e["stalls"]
        out.append(e)
    key = (lambda e: -sum(e["stalls"].values())) if timing else (lambda e: -e["warp_insts"])
    out.sort(key=key)
    for n_, e in enumerate(out):
        e["hot"] = n_ < 2
    # re-order members as the contract lists them
    order = ["file", "line", "pcs", "warp_insts", "active_lanes", "global", "shared", "issue_share_pct", "stalls",
             "hot"]
    L["ptx"] = ptx
    L["lines"] = [{kk: e[kk] for kk in order if kk in e} for e in out]
    if timing:
        L["blocks"] = {"items": sorted(blocks), "truncated": False}
        sps = []
        for sm in range(DEVICE["sm_count"]):
            for sp in range(DEVICE["subpartitions"]):
                ws = sorted((w for w in warps.values() if w["sm"] == sm and w["sp"] == sp),
                            key=lambda w: (w["t_start"], w["slot"]))
                iss = sorted([c, w["slot"], pc] for w in ws for (c, pc, _) in w["issues"])
                sps.append({"sm": sm, "sp": sp, "issues": iss,
                            "warps": [{"slot": w["slot"], "block": w["b"], "warp": w["w"], "t_start": w["t_start"],
                                       "t_end": w["t_end"], "states": w["states"]} for w in ws]})
        L["timeline"] = {"sms": list(range(DEVICE["sm_count"])), "t0": 0, "t1": L["cycles"], "truncated": False,
                         "subpartitions": sps}
    dv = traces[(1, 0)]
    L["divergence"] = {"block": 1, "warp": 0, "lanes": 32,
                       "steps": [[s["pc"], s["active"], s["exec"]] for s in dv], "truncated": False}
    L["memory"] = [samples[pc] for pc in sorted(samples)]
    return L


def host(timing, launches):
    """the host timeline of main(): nvtx ranges, copies, the two kernels on two streams, an event, a callback"""
    us = 1e-6
    k0 = launches[0]["cycles"] / 1e3 if timing else 4.1
    k1 = launches[1]["cycles"] / 1e3 if timing else 9.7
    ev = []
    add = lambda **e: ev.append(e)
    add(kind="nvtx", name="main", t0=0.0, t1=0, depth=0)
    add(kind="nvtx", name="setup", t0=0.4 * us, t1=11.5 * us, depth=1)
    add(kind="nvtx", name="cudaMalloc x5", t0=0.6 * us, t1=4.4 * us, depth=2)
    for j in range(5):
        add(kind="api", name="cudaMalloc", t0=(0.6 + 0.75 * j) * us, t1=(1.2 + 0.75 * j) * us)
    add(kind="api", name="cudaStreamCreate", t0=4.8 * us, t1=5.3 * us)
    add(kind="memcpy", name="HtoD", stream=0, t0=6.0 * us, t1=7.9 * us, bytes=280)
    add(kind="memcpy", name="HtoD", stream=0, t0=8.1 * us, t1=10.0 * us, bytes=280)
    add(kind="memcpy", name="HtoD", stream=1, t0=6.4 * us, t1=11.0 * us, bytes=9600)
    add(kind="memset", name="memset", stream=1, t0=11.2 * us, t1=11.8 * us, bytes=40)
    t = 12.0
    add(kind="kernel", name="vecAdd", stream=0, t0=t * us, t1=(t + k0) * us, launch=0)
    t += k0
    add(kind="event", name="cudaEventRecord(done)", stream=0, t0=t * us, t1=t * us)
    t1s = t + 0.5
    add(kind="kernel", name="sumX", stream=1, t0=t1s * us, t1=(t1s + k1) * us, launch=1)
    add(kind="memcpy", name="DtoH", stream=0, t0=(t + 0.3) * us, t1=(t + 2.2) * us, bytes=280)
    t2 = t1s + k1
    add(kind="memcpy", name="DtoH", stream=1, t0=(t2 + 0.2) * us, t1=(t2 + 1.4) * us, bytes=40)
    add(kind="callback", name="host callback", stream=1, t0=(t2 + 1.6) * us, t1=(t2 + 2.6) * us)
    add(kind="graph", name="graph 0 (2 nodes)", stream=0, t0=(t + 3.0) * us, t1=(t + 6.5) * us)
    add(kind="memcpy", name="DtoD", stream=0, t0=(t + 3.4) * us, t1=(t + 4.6) * us, bytes=280)
    end = max(e["t1"] for e in ev) + 0.6 * us
    add(kind="sync", name="cudaDeviceSynchronize", t0=t * us, t1=end)
    add(kind="nvtx", name="check", t0=end + 0.2 * us, t1=end + 2.0 * us, depth=1)
    ev[0]["t1"] = end + 2.5 * us
    ev.sort(key=lambda e: (e["t0"], e.get("depth", 0)))
    order = ["kind", "name", "stream", "t0", "t1", "bytes", "launch", "depth"]
    for e in ev:
        e["t0"] = round(e["t0"], 12)
        e["t1"] = round(e["t1"], 12)
    return {"clock": "simulated" if timing else "wall",
            "streams": [{"id": 0, "name": "default"}, {"id": 1, "name": "stream 1"}],
            "events": [{kk: e[kk] for kk in order if kk in e} for e in ev]}


KERNELS = [
    Kernel("_Z6vecAddPKfS0_Pfi", "vecAdd(const float*, const float*, float*, int)", VECADD, 2, 64, 16, 0,
           trace_vecadd, lambda g: 70),
    Kernel("_Z4sumXPK1PPfi", "sumX(const P*, float*, int)", SUMX, 10, 128, 40, 512, trace_sumx,
           lambda g: 127 * g),
]


def report(timing):
    launches = [build_launch(i, k, timing) for i, k in enumerate(KERNELS)]
    view = {"version": 1, "mode": "timing" if timing else "functional", "device": DEVICE,
            "sources": {"kernels.cu": {"lines": SOURCE}}, "launches": launches, "host": host(timing, launches)}
    rl = []
    for L in launches:
        r = {"kernel": L["kernel"], "grid": L["grid"], "block": L["block"], "dynamic_smem": 0,
             "smsp__inst_executed.sum": L["warp_insts"], "smsp__thread_inst_executed.sum": L["thread_insts"]}
        if timing:
            r["sm__cycles_elapsed.max"] = L["cycles"]
        rl.append(r)
    return {"device": "mini", "launches": rl, "view": view}


def dump(obj, path):
    """one launch, one PTX instruction, one line, one warp per line: small diffs, readable by hand"""
    def enc(x):
        return json.dumps(x, separators=(", ", ": "))
    v = obj["view"]
    out = ['{"device": %s, "launches": [' % enc(obj["device"])]
    out.append(",\n".join("  " + enc(r) for r in obj["launches"]))
    out.append('], "view": {"version": 1, "mode": %s,' % enc(v["mode"]))
    out.append(' "device": %s,' % enc(v["device"]))
    out.append(' "sources": {"kernels.cu": {"lines": [')
    out.append(",\n".join("   " + enc(l) for l in v["sources"]["kernels.cu"]["lines"]))
    out.append(' ]}},')
    out.append(' "launches": [')
    ls = []
    for L in v["launches"]:
        parts = []
        head = {k: L[k] for k in L if k not in ("ptx", "lines", "blocks", "timeline", "divergence", "memory")}
        parts.append("  " + enc(head)[:-1] + ",")
        parts.append('   "ptx": [\n' + ",\n".join("    " + enc(x) for x in L["ptx"]) + "],")
        parts.append('   "lines": [\n' + ",\n".join("    " + enc(x) for x in L["lines"]) + "],")
        if "blocks" in L:
            parts.append('   "blocks": %s,' % enc(L["blocks"]))
            tl = L["timeline"]
            sps = []
            for sp in tl["subpartitions"]:
                s = '    {"sm": %d, "sp": %d,\n     "issues": %s,\n     "warps": [\n' % (sp["sm"], sp["sp"], enc(sp["issues"]))
                s += ",\n".join("      " + enc(w) for w in sp["warps"]) + "]}"
                sps.append(s)
            parts.append('   "timeline": {"sms": %s, "t0": %d, "t1": %d, "truncated": false, "subpartitions": [\n%s]},'
                         % (enc(tl["sms"]), tl["t0"], tl["t1"], ",\n".join(sps)))
        parts.append('   "divergence": %s,' % enc(L["divergence"]))
        parts.append('   "memory": [\n' + ",\n".join("    " + enc(x) for x in L["memory"]) + "]}")
        ls.append("\n".join(parts))
    out.append(",\n".join(ls))
    out.append(' ],')
    h = v["host"]
    out.append(' "host": {"clock": %s, "streams": %s, "events": [' % (enc(h["clock"]), enc(h["streams"])))
    out.append(",\n".join("   " + enc(e) for e in h["events"]))
    out.append(' ]}}}')
    text = "\n".join(out) + "\n"
    assert json.loads(text) == json.loads(json.dumps(obj)), path
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    dump(report(False), os.path.join(HERE, "functional.json"))
    dump(report(True), os.path.join(HERE, "timing.json"))
    print("wrote functional.json and timing.json in", HERE)
