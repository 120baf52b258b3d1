// The protocol of `byzantium serve` (docs/server.rst), and the seat tokens this browser
// holds. Every error of the server is one JSON object {error, code, rule?}: it becomes
// an ApiError whose message is that sentence.

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `the server answered ${status}`);
    this.status = status;
    this.code = body && body.code ? body.code : "";
    this.rule = body && body.rule ? body.rule : "";
  }
}

export async function call(method, path, { token = null, body = undefined } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { error: "the server cannot be reached", code: "offline" });
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// Seat tokens of this browser: {game_id: {seat, token, game, name, created}}, kept in
// localStorage so that a reload, or a visit days later, finds its games again.
const KEY = "byzantium.seats";

export function seats() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch { return {}; }
}

export function seatOf(gameId) { return seats()[gameId] || null; }

export function keepSeat(gameId, entry) {
  const all = seats();
  all[gameId] = entry;
  localStorage.setItem(KEY, JSON.stringify(all));
}

// The link that gives a seat to the person it is sent to: the token rides in the
// fragment, which the browser never sends to a server.
export function invitation(gameId, seat, token) {
  const base = `${location.origin}${location.pathname}`;
  return `${base}#/game/${encodeURIComponent(gameId)}?seat=${seat}&token=${encodeURIComponent(token)}`;
}

// A socket URL beside the page (ws: or wss: as the page is http: or https:).
export function socketUrl(gameId) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/api/games/${encodeURIComponent(gameId)}/socket`;
}

let problemTimer = null;
export function showProblem(text) {
  const box = document.getElementById("problem");
  box.textContent = text;
  box.hidden = !text;
  clearTimeout(problemTimer);
  if (text) problemTimer = setTimeout(() => { box.hidden = true; }, 15000);
}
