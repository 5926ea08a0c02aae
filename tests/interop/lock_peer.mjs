// A Node peer that locks MEMORY.md exactly as pi-memory does, with the real proper-lockfile.
//
//   node lock_peer.mjs append <file> <prefix> <count>   read-modify-write <count> entries
//                                                       "<prefix>-<i>"; prints "ack <entry>"
//                                                       after each write is on disk
//   node lock_peer.mjs hold <file>                      lock, print "locked", hold until killed
//                                                       or stdin closes (then release)
//   node lock_peer.mjs check <file>                     print {"locked": true|false}
//
// Like pi-memory's store, the target file is created (exclusively, races ignored) before
// locking, because proper-lockfile resolves the real path of the file it locks.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import lockfile from "proper-lockfile";

const DELIMITER = "\n§\n";
const LOCK_OPTIONS = {
  stale: 30000,
  retries: { retries: 50, factor: 1.5, minTimeout: 20, maxTimeout: 200 },
};

function ensureFile(file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, "", { flag: "wx" });
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
  }
}

function parse(raw) {
  if (!raw.trim()) return [];
  const seen = new Set();
  const out = [];
  for (const piece of raw.split(DELIMITER)) {
    const entry = piece.trim();
    if (entry && !seen.has(entry)) {
      seen.add(entry);
      out.push(entry);
    }
  }
  return out;
}

function atomicWrite(file, text) {
  const tmp = path.join(path.dirname(file), `.mem_${randomBytes(6).toString("hex")}.tmp`);
  try {
    const fd = fs.openSync(tmp, "wx", 0o600);
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw err;
  }
}

async function append(file, prefix, count) {
  for (let i = 0; i < count; i++) {
    const entry = `${prefix}-${i}`;
    for (;;) {
      ensureFile(file);
      let release;
      try {
        release = await lockfile.lock(file, LOCK_OPTIONS);
      } catch (err) {
        if (err.code === "ELOCKED") continue; // retries exhausted: try again, never drop the entry
        throw err;
      }
      try {
        const entries = parse(fs.readFileSync(file, "utf8"));
        if (!entries.includes(entry)) entries.push(entry);
        atomicWrite(file, entries.join(DELIMITER));
      } finally {
        await release();
      }
      process.stdout.write(`ack ${entry}\n`);
      break;
    }
  }
}

async function hold(file) {
  ensureFile(file);
  const release = await lockfile.lock(file, { stale: 30000, retries: 0 });
  process.stdout.write("locked\n");
  process.stdin.resume();
  process.stdin.on("end", async () => {
    await release();
    process.stdout.write("released\n");
    process.exit(0);
  });
}

async function check(file) {
  const locked = await lockfile.check(file, { stale: 30000 });
  process.stdout.write(`${JSON.stringify({ locked })}\n`);
}

const [command, file, ...rest] = process.argv.slice(2);
if (command === "append") {
  await append(file, rest[0], Number(rest[1]));
} else if (command === "hold") {
  await hold(file);
} else if (command === "check") {
  await check(file);
} else {
  process.stderr.write(`unknown command ${command}\n`);
  process.exit(2);
}
