// The reference server's page: create a table (against bots, or with human opponents who
// each get their seat's link), open an existing table by its id or a seat's link, then
// play over the websocket.  Every state the server pushes is drawn as it comes: the board
// (an SVG the server draws for our seat), the legal moves as buttons, what happened (in
// words) and the result.
//
// A seat's link is /?table=ID#token=T: the token is in the fragment, which the browser
// never sends to the server, so it is in no request line nor log (the websocket's URL
// carries it, and the server redacts it from its log).
//
// Stable element ids for tests: #game #options #bot #seat #create-table #open-id
// #open-token #open-table #table-id #game-name #my-seat (data-role, data-seat) #version
// #turn #links #seat-links (a[data-seat]) #board #moves (data-version: the version its
// buttons belong to) #move-text #send-move #events (li[data-index]) #result
// (data-outcome: the outcome as JSON) #error.
"use strict";

const $ = (id) => document.getElementById(id);
const play = {
  table: null, token: null, role: null, seat: null, socket: null, version: null, sent: 0,
};
let games = [];

function showError(text) {
  $("error").textContent = text || "";
}

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (play.token) headers.Authorization = `Bearer ${play.token}`;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(`${response.status} ${data.error.code}: ${data.error.message}`);
  return data;
}

async function loadGames() {
  games = (await api("GET", "/games")).games;
  const select = $("game");
  for (const game of games) {
    const option = document.createElement("option");
    option.value = game.id;
    option.textContent = game.name;
    select.appendChild(option);
  }
  select.value = "armadora";
  select.addEventListener("change", () => {
    const game = games.find((g) => g.id === select.value);
    $("options").value = JSON.stringify(game.example_options[0] || {});
  });
}

// --- links: /?table=ID#token=T ---

function tableLink(table, token) {
  const url = new URL("/", location.href);
  url.searchParams.set("table", table);
  if (token) url.hash = new URLSearchParams({ token }).toString();
  return url.href;
}

// The table and token a link names (a link pasted whole, or this page's address).
function readLink(href) {
  let url;
  try {
    url = new URL(href, location.href);
  } catch (error) {
    return null;
  }
  const table = url.searchParams.get("table");
  if (!table) return null;
  const token = new URLSearchParams(url.hash.slice(1)).get("token")
    || url.searchParams.get("token"); // an old-style link: moved to the fragment below
  return { table, token };
}

function openFromAddress() {
  const link = readLink(location.href);
  if (!link) return;
  // keep a token out of the query: the address bar then holds it in the fragment only
  history.replaceState(null, "", tableLink(link.table, link.token));
  openTable(link.table, link.token);
}

// --- creating and opening ---

async function createTable(event) {
  event.preventDefault();
  showError("");
  let options;
  try {
    options = JSON.parse($("options").value || "{}");
  } catch (error) {
    showError(`the options are not JSON: ${error.message}`);
    return;
  }
  const game = games.find((g) => g.id === $("game").value);
  const players = Number.isInteger(options.players) ? options.players : game.players;
  const seat = Number($("seat").value);
  const opponents = $("bot").value.trim() || "human";
  const seats = Array.from({ length: players }, (_, i) => (i === seat ? "human" : opponents));
  let created;
  try {
    play.token = null;
    created = await api("POST", "/tables", { game: game.id, options, seats });
  } catch (error) {
    showError(error.message);
    return;
  }
  const table = created.table.id;
  const tokens = created.tokens.seats;
  const links = tokens.map((token, i) => (token ? { seat: i, href: tableLink(table, token) } : null))
    .filter((link) => link !== null);
  history.pushState(null, "", tableLink(table, tokens[seat]));
  // the links are worth showing when someone else is to use one
  await openTable(table, tokens[seat], links.length > 1 ? links : [], seat);
}

function openForm(event) {
  event.preventDefault();
  const text = $("open-id").value.trim();
  const link = readLink(text) || { table: text, token: null };
  const token = $("open-token").value.trim() || link.token;
  if (!link.table) {
    showError("give a table's id or a seat's link");
    return;
  }
  history.pushState(null, "", tableLink(link.table, token));
  openTable(link.table, token);
}

async function openTable(table, token, links = [], ownSeat = null) {
  closeSocket();
  showError("");
  Object.assign(play, { table, token: token || null, role: null, seat: null, version: null });
  let summary;
  try {
    summary = await api("GET", `/tables/${encodeURIComponent(table)}`);
  } catch (error) {
    $("table").hidden = true;
    showError(error.message);
    return;
  }
  $("table-id").textContent = table;
  $("game-name").textContent = summary.game;
  $("my-seat").textContent = "";
  drawLinks(links, ownSeat);
  $("events").replaceChildren();
  $("moves").replaceChildren();
  $("board").replaceChildren();
  delete $("board").dataset.version;
  $("result").textContent = "";
  delete $("result").dataset.outcome;
  $("table").hidden = false;
  if (summary.status === "refused") showError(`this table is refused: ${summary.error}`);
  connect();
}

function drawLinks(links, ownSeat) {
  const items = links.map(({ seat, href }) => {
    const item = document.createElement("li");
    const anchor = document.createElement("a");
    anchor.href = href;
    anchor.target = "_blank";
    anchor.rel = "noopener noreferrer";
    anchor.dataset.seat = String(seat);
    anchor.textContent = href;
    item.append(`seat ${seat}${seat === ownSeat ? " (yours, this page)" : ""}: `, anchor);
    return item;
  });
  $("seat-links").replaceChildren(...items);
  $("links").hidden = items.length === 0;
}

// --- the websocket ---

function closeSocket() {
  const socket = play.socket;
  play.socket = null;
  if (socket) socket.close(1000);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = play.token ? `?token=${encodeURIComponent(play.token)}` : "";
  const socket = new WebSocket(
    `${scheme}://${location.host}/tables/${encodeURIComponent(play.table)}/ws${query}`);
  play.socket = socket;
  socket.onmessage = (message) => {
    if (play.socket === socket) receive(JSON.parse(message.data));
  };
  socket.onclose = (event) => {
    if (play.socket === socket && event.code !== 1000) showError(`connection closed (${event.code})`);
  };
}

function receive(message) {
  if (message.type === "state") draw(message);
  else if (message.type === "error") {
    showError(`${message.status} ${message.error.code}: ${message.error.message}`);
    setMovesEnabled(true);
  }
}

function whoAmI(state) {
  if (play.role !== null) return;
  play.role = state.role;
  play.seat = state.seat;
  const mine = $("my-seat");
  mine.textContent = state.role === "seat" ? `seat ${state.seat}`
    : state.role === "host" ? "host" : "watching";
  mine.dataset.role = state.role;
  mine.dataset.seat = state.seat === null ? "" : String(state.seat);
}

function describeTurn(state) {
  const turn = state.turn;
  if (turn.kind === "over") return "the game is over";
  if (state.your_turn) return turn.kind === "chance" ? "your turn: the dice or cards" : "your turn";
  if (turn.kind === "chance") return "waiting for the host's dice or cards";
  return turn.kind === "bot" ? `the bot (seat ${turn.seat}) is thinking` : `seat ${turn.seat} to move`;
}

function draw(state) {
  whoAmI(state);
  play.version = state.version;
  $("version").textContent = String(state.version);
  const turn = $("turn");
  turn.textContent = describeTurn(state);
  turn.className = state.your_turn ? "your-turn" : "";
  drawMoves(state);
  drawEvents(state);
  drawBoard(state.version);
  if (state.outcome) drawResult(state.outcome);
}

function drawMoves(state) {
  const moves = $("moves");
  const buttons = state.legal_moves.map((move) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.textContent = move;
    button.dataset.move = move;
    button.addEventListener("click", () => send(move));
    return button;
  });
  moves.replaceChildren(...buttons);
  moves.dataset.version = String(state.version);
  $("send-move").disabled = !state.your_turn;
}

function setMovesEnabled(enabled) {
  for (const button of $("moves").querySelectorAll("button")) button.disabled = !enabled;
  $("send-move").disabled = !enabled;
}

// What happened, in the server's words (describe_event): the whole log with a full state
// (on connecting, or after a sync), what the last change caused after that.
function drawEvents(state) {
  const list = $("events");
  const whole = Array.isArray(state.events);
  const events = whole ? state.events : state.last_events;
  const words = whole ? state.events_text : state.last_events_text;
  if (whole) list.replaceChildren();
  events.forEach((event, i) => {
    const item = document.createElement("li");
    const who = event.player < 0 ? "chance" : `seat ${event.player}`;
    item.textContent = `#${event.index} ${who}: ${words[i]}`;
    item.dataset.index = String(event.index);
    item.dataset.kind = event.kind;
    list.appendChild(item);
  });
  while (list.children.length > 200) list.removeChild(list.firstChild);
  list.scrollTop = list.scrollHeight;
}

async function drawBoard(version) {
  const table = play.table;
  try {
    const headers = play.token ? { Authorization: `Bearer ${play.token}` } : {};
    const response = await fetch(`/tables/${encodeURIComponent(table)}/board.svg`, { headers });
    if (!response.ok) return;
    const svg = await response.text();
    if (table !== play.table || version !== play.version) return; // a newer one is coming
    $("board").innerHTML = svg;
    $("board").dataset.version = String(version);
  } catch (error) {
    showError(`the board could not be drawn: ${error.message}`);
  }
}

function drawResult(outcome) {
  const shared = outcome.winners.length > 1;
  let verdict = "";
  if (play.role === "seat") {
    const mine = outcome.winners.includes(play.seat);
    verdict = `${mine ? (shared ? "a shared win" : "you win") : "you lose"}. `;
  }
  const winners = outcome.winners.map((w) => `seat ${w}`).join(", ");
  $("result").textContent =
    `Game over (${outcome.reason}): ${verdict}Winners: ${winners}. Scores: ${outcome.scores.join(" · ")}`;
  $("result").dataset.outcome = JSON.stringify(outcome);
}

function send(move) {
  if (!play.socket || play.socket.readyState !== WebSocket.OPEN) {
    showError("not connected");
    return;
  }
  showError("");
  setMovesEnabled(false);
  play.sent += 1;
  play.socket.send(JSON.stringify({
    type: "move", move, expected_version: play.version, id: play.sent,
  }));
}

$("setup").addEventListener("submit", createTable);
$("open-form").addEventListener("submit", openForm);
$("notation-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("move-text").value.trim();
  if (text) send(text);
  $("move-text").value = "";
});
window.addEventListener("popstate", openFromAddress);
loadGames().catch((error) => showError(`cannot list the games: ${error.message}`));
openFromAddress();
