// The live table page: draws what the table's event stream sends (bot/web/live.py's view)
// as SVG, with the countdown of the person to act and the hand's log. No dependencies.
"use strict";
(function () {
  const root = document.getElementById("live-table");
  if (!root) return;
  const NS = "http://www.w3.org/2000/svg";
  const WIDTH = 800, HEIGHT = 440, CX = 400, CY = 205, SEATS_X = 340, SEATS_Y = 175;
  const BETS_X = 215, BETS_Y = 105;
  const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
  const svg = root.querySelector("svg");
  const part = (name) => root.querySelector('[data-live="' + name + '"]');
  let view = null;
  let receivedAt = 0;

  function element(name, attributes, text) {
    const node = document.createElementNS(NS, name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function card(code, x, y, parent) {
    const red = code[1] === "h" || code[1] === "d";
    const group = element("g", { class: "live-card" + (red ? " red" : ""), "data-card": code });
    group.appendChild(element("rect", { x: x, y: y, width: 34, height: 48, rx: 4 }));
    group.appendChild(element("text", { x: x + 17, y: y + 31, "text-anchor": "middle" },
      code[0].replace("T", "10") + SUITS[code[1]]));
    parent.appendChild(group);
  }

  function around(seat, count, radiusX, radiusY) {
    const angle = Math.PI / 2 + (2 * Math.PI * seat) / count;
    return [CX + radiusX * Math.cos(angle), CY + radiusY * Math.sin(angle)];
  }

  function draw() {
    svg.replaceChildren();
    svg.appendChild(element("ellipse", { class: "live-felt", cx: CX, cy: CY, rx: 300, ry: 140 }));
    part("title").textContent = view.title || "";
    part("blinds").textContent = view.blinds || "";
    part("street").textContent = view.street || "";
    part("notice").textContent = view.notice || view.delay_notice || "";
    const boards = view.boards || [];
    const board = element("g", { id: "live-board", "data-cards": boards.flat().join(" ") });
    boards.forEach((cards, row) => {
      const top = CY - 24 + (row - (boards.length - 1) / 2) * 54;
      cards.forEach((code, index) => card(code, CX - 95 + index * 38, top, board));
    });
    svg.appendChild(board);
    const pot = element("text", { id: "live-pot", class: "live-pot", x: CX, y: CY - 50,
      "text-anchor": "middle", "data-pot": view.pot || 0 }, view.pot_text || "");
    svg.appendChild(pot);
    if ((view.pots || []).length) {
      svg.appendChild(element("text", { class: "live-pots", x: CX, y: CY + 62,
        "text-anchor": "middle" }, view.pots.join("   ")));
    }
    for (const seat of view.seats || []) drawSeat(seat, view.max_seats || 9);
    const log = part("log");
    log.replaceChildren(...(view.log || []).map((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      return item;
    }));
    tick();
  }

  function drawSeat(seat, count) {
    const [x, y] = around(seat.seat, count, SEATS_X, SEATS_Y);
    const faded = seat.folded || !seat.in_hand;
    const group = element("g", { class: "live-seat" + (faded ? " faded" : "")
      + (view.to_act === seat.seat ? " to-act" : ""), "data-seat": seat.seat });
    group.appendChild(element("rect", { x: x - 70, y: y - 24, width: 140, height: 48, rx: 8 }));
    group.appendChild(element("text", { x: x, y: y - 5, "text-anchor": "middle",
      class: "live-name" }, seat.name));
    group.appendChild(element("text", { x: x, y: y + 15, "text-anchor": "middle",
      class: "live-status" }, seat.status));
    if (view.to_act === seat.seat) {
      group.appendChild(element("text", { x: x + 64, y: y - 28, "text-anchor": "end",
        class: "live-countdown", "data-live": "countdown" }, ""));
    }
    seat.cards.forEach((code, index) => card(code, x - 36 + index * 38, y - 78, group));
    if (seat.shown_as) {
      group.appendChild(element("text", { x: x, y: y + 38, "text-anchor": "middle",
        class: "live-shown" }, seat.shown_as));
    }
    svg.appendChild(group);
    if (seat.bet) {
      const [bx, by] = around(seat.seat, count, BETS_X, BETS_Y);
      svg.appendChild(element("text", { x: bx, y: by, "text-anchor": "middle",
        class: "live-bet" }, String(seat.bet)));
    }
    if (seat.button) {
      const [dx, dy] = around(seat.seat + 0.35, count, BETS_X + 40, BETS_Y + 25);
      svg.appendChild(element("circle", { class: "live-button", cx: dx, cy: dy, r: 11 }));
      svg.appendChild(element("text", { x: dx, y: dy + 5, "text-anchor": "middle",
        class: "live-button-text" }, "D"));
    }
  }

  function tick() {
    const countdown = svg.querySelector('[data-live="countdown"]');
    if (!countdown || !view || !view.deadline) return;
    const left = view.deadline - view.published - (performance.now() - receivedAt) / 1000;
    countdown.textContent = "\u23F1 " + Math.max(0, Math.ceil(left));
  }

  svg.setAttribute("viewBox", "0 0 " + WIDTH + " " + HEIGHT);
  const source = new EventSource(root.dataset.events);
  source.addEventListener("table", (event) => {
    view = JSON.parse(event.data);
    receivedAt = performance.now();
    draw();
    root.dataset.version = view.version;
  });
  source.addEventListener("end", () => {
    source.close();
    part(view && view.paused ? "paused" : "closed").hidden = false;
  });
  setInterval(tick, 250);
})();
