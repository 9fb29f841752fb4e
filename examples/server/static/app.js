// The reference server's page: create a table against a bot, then play it over the
// websocket.  Every state the server pushes is drawn as it comes: the board (an SVG the
// server draws for our seat), the legal moves as buttons, what happened, and the result.
// Stable element ids for tests: #game #options #bot #seat #create-table #table-id
// #version #turn #board #moves (data-version: the version its buttons belong to)
// #move-text #send-move #events #result (data-outcome: the outcome as JSON) #error.
"use strict";

const $ = (id) => document.getElementById(id);
const play = { table: null, token: null, seat: 0, socket: null, version: null, sent: 0 };
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
  const seats = Array.from({ length: players }, (_, i) => (i === seat ? "human" : $("bot").value));
  try {
    play.token = null;
    const created = await api("POST", "/tables", { game: game.id, options, seats });
    play.table = created.table.id;
    play.seat = seat;
    play.token = created.tokens.seats[seat];
  } catch (error) {
    showError(error.message);
    return;
  }
  $("table-id").textContent = play.table;
  $("my-seat").textContent = String(play.seat);
  $("events").replaceChildren();
  $("result").textContent = "";
  delete $("result").dataset.outcome;
  $("table").hidden = false;
  connect();
}

function connect() {
  if (play.socket) play.socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const url = `${scheme}://${location.host}/tables/${play.table}/ws?token=${encodeURIComponent(play.token)}`;
  const socket = new WebSocket(url);
  play.socket = socket;
  socket.onmessage = (message) => receive(JSON.parse(message.data));
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

function describeTurn(state) {
  const turn = state.turn;
  if (turn.kind === "over") return "the game is over";
  if (turn.kind === "chance") return "waiting for the host's dice or cards";
  if (state.your_turn) return "your turn";
  return turn.kind === "bot" ? `the bot (seat ${turn.seat}) is thinking` : `seat ${turn.seat} to move`;
}

function draw(state) {
  play.version = state.version;
  $("version").textContent = String(state.version);
  const turn = $("turn");
  turn.textContent = describeTurn(state);
  turn.className = state.your_turn ? "your-turn" : "";
  drawMoves(state);
  drawEvents(state.events || state.last_events);
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

function drawEvents(events) {
  const list = $("events");
  for (const event of events) {
    const item = document.createElement("li");
    const { index, player, kind, ...fields } = event;
    const who = player < 0 ? "chance" : `seat ${player}`;
    item.textContent = `#${index} ${who}: ${kind} ${JSON.stringify(fields)}`;
    list.appendChild(item);
  }
  while (list.children.length > 200) list.removeChild(list.firstChild);
  list.scrollTop = list.scrollHeight;
}

async function drawBoard(version) {
  try {
    const response = await fetch(`/tables/${play.table}/board.svg`, {
      headers: { Authorization: `Bearer ${play.token}` },
    });
    if (!response.ok) return;
    const svg = await response.text();
    if (version !== play.version) return; // a newer state is already on its way
    $("board").innerHTML = svg;
    $("board").dataset.version = String(version);
  } catch (error) {
    showError(`the board could not be drawn: ${error.message}`);
  }
}

function drawResult(outcome) {
  const mine = outcome.winners.includes(play.seat);
  const shared = outcome.winners.length > 1;
  const verdict = mine ? (shared ? "a shared win" : "you win") : "you lose";
  const winners = outcome.winners.map((w) => `seat ${w}`).join(", ");
  $("result").textContent =
    `Game over (${outcome.reason}): ${verdict}. Winners: ${winners}. Scores: ${outcome.scores.join(" · ")}`;
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
$("notation-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("move-text").value.trim();
  if (text) send(text);
  $("move-text").value = "";
});
loadGames().catch((error) => showError(`cannot list the games: ${error.message}`));
