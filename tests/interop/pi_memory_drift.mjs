// pi-memory's drift rule, as its store.ts applies it before every mutation, run under real
// JavaScript string semantics (String.prototype.trim, UTF-16 `length`).
//
// @amaster.ai/pi-memory is not published on npm, so the rule is transcribed here from its
// source (the store's detectDrift): split the raw file on "\n§\n", trim each piece, drop empty
// pieces, re-join; drift when the trimmed file differs from the re-joined text, or when any
// piece is longer than the store's char limit.
//
// stdin: a JSON array of {"raw": string, "limit": number}; stdout: a JSON array of booleans.
const DELIMITER = "\n§\n";

function drifts(raw, limit) {
  const trimmed = raw.trim();
  if (!trimmed) return false;
  const pieces = raw.split(DELIMITER).map((piece) => piece.trim()).filter((piece) => piece.length > 0);
  return trimmed !== pieces.join(DELIMITER) || pieces.some((piece) => piece.length > limit);
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const cases = JSON.parse(input);
  process.stdout.write(JSON.stringify(cases.map(({ raw, limit }) => drifts(raw, limit))));
});
