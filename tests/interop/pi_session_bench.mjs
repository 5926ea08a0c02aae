// Times pi 1.6.0's SessionManager for bench/session_bench.py (same method as
// ../shared/bench/pi_session_perf.mjs: open + buildSessionContext, median of the runs).
//
//   node pi_session_bench.mjs make <dir> <N>        write an N-entry session with pi; prints {"file"}
//   node pi_session_bench.mjs time <file> <runs>    prints {"ms": [...], "messages": n}
import fs from "node:fs";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const { SessionManager } = await import(
  path.join(here, "node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js")
);

const [cmd, a, b] = process.argv.slice(2);
if (cmd === "make") {
  const N = Number(b);
  fs.rmSync(a, { recursive: true, force: true });
  const sm = SessionManager.create("/tmp/proj", a);
  let ts = 1733234400000;
  for (let i = 0; i < N / 2; i++) {
    sm.appendMessage({ role: "user", content: "question number " + i + " about the project and its memory", timestamp: (ts += 1000) });
    sm.appendMessage({
      role: "assistant",
      content: [{ type: "text", text: "answer " + i + " with some more words to make it realistic ".repeat(3) }],
      api: "openai-completions",
      provider: "openai",
      model: "gpt-4.1-mini",
      usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120, cost: { input: 0.0001, output: 0.00002, cacheRead: 0, cacheWrite: 0, total: 0.00012 } },
      stopReason: "stop",
      timestamp: (ts += 1000),
    });
  }
  process.stdout.write(JSON.stringify({ file: sm.getSessionFile() }));
} else if (cmd === "time") {
  const runs = Number(b);
  const ms = [];
  let messages = 0;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    const s2 = SessionManager.open(a);
    const ctx = s2.buildSessionContext();
    ms.push(performance.now() - t0);
    messages = ctx.messages.length;
  }
  process.stdout.write(JSON.stringify({ ms, messages }));
} else {
  console.error("usage: make <dir> <N> | time <file> <runs>");
  process.exit(2);
}
