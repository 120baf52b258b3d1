// The page's two places: the lobby (#/) and a game (#/game/ID, with ?seat=N&token=T
// when the page was opened from an invitation link).
import { keepSeat, seatOf, showProblem } from "./api.js";
import { openLobby } from "./lobby.js";
import { closeGame, openGame } from "./game.js";

function route() {
  showProblem("");
  const hash = location.hash || "#/";
  const match = /^#\/game\/([^?]+)(?:\?(.*))?$/.exec(hash);
  if (!match) {
    closeGame();
    document.getElementById("game").hidden = true;
    document.getElementById("lobby").hidden = false;
    document.getElementById("where").textContent = "lobby";
    openLobby();
    return;
  }
  const gameId = decodeURIComponent(match[1]);
  const query = new URLSearchParams(match[2] || "");
  if (query.get("token")) {
    // An invitation: keep its seat, then drop the token from the address bar.
    const known = seatOf(gameId);
    keepSeat(gameId, {
      ...(known || {}), seat: Number(query.get("seat") || 0), token: query.get("token"),
    });
    history.replaceState(null, "", `#/game/${encodeURIComponent(gameId)}`);
  }
  document.getElementById("lobby").hidden = true;
  document.getElementById("game").hidden = false;
  openGame(gameId);
}

window.addEventListener("hashchange", route);
route();
