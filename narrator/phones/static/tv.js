// The table's board on a TV (docs/tv.md): read-only, public, no token. The laptop sends the board
// on every beat; this page draws it and sends nothing. Every name is put in as text, never as markup.
(function () {
  "use strict";
  var L = JSON.parse(document.getElementById("labels").textContent);
  var $ = function (id) { return document.getElementById(id); };
  var SVG = "http://www.w3.org/2000/svg";
  // Each card's symbol, on a 24x24 grid (drawn for this page; a role without one shows its initial).
  var SHAPES = {
    wolf: "M3 2 L8 7 L12 5.5 L16 7 L21 2 L20.5 12 L16.5 18 L12 22 L7.5 18 L3.5 12 Z M7.5 10.5 L10.5 12 L7.5 13 Z M16.5 10.5 L13.5 12 L16.5 13 Z",
    eye: "M1 12 C5 4.5 19 4.5 23 12 C19 19.5 5 19.5 1 12 Z M12 7.5 A4.5 4.5 0 1 0 12 16.5 A4.5 4.5 0 1 0 12 7.5 Z M12 10 A2 2 0 1 1 12 14 A2 2 0 1 1 12 10 Z",
    flask: "M9 2 H15 V4 H14 V9 L20 19 C21 21 20 22 18 22 H6 C4 22 3 21 4 19 L10 9 V4 H9 Z",
    crosshair: "M12 3 A9 9 0 1 0 12 21 A9 9 0 1 0 12 3 Z M12 5 A7 7 0 1 1 12 19 A7 7 0 1 1 12 5 Z M11 0.5 H13 V9 H11 Z M11 15 H13 V23.5 H11 Z M0.5 11 H9 V13 H0.5 Z M15 11 H23.5 V13 H15 Z",
    heart: "M12 21 L3 12 C0 9 2 3 7 3 C9 3 11 4 12 6 C13 4 15 3 17 3 C22 3 24 9 21 12 Z",
    house: "M12 3 L2 12 H5 V21 H10 V15 H14 V21 H19 V12 H22 Z",
    shield: "M12 2 L20 5 V11 C20 16 16 20 12 22 C8 20 4 16 4 11 V5 Z",
    mask: "M2 9 C6 7 9 8 12 10 C15 8 18 7 22 9 C22 14 19 16 16 15 C14 14 13 13 12 13 C11 13 10 14 8 15 C5 16 2 14 2 9 Z M5.5 10.5 L9 11.8 L5.5 13 Z M18.5 10.5 L15 11.8 L18.5 13 Z"
  };
  var ROLE_SHAPE = {werewolf: "wolf", big_bad_wolf: "wolf", white_werewolf: "wolf", accursed_wolf_father: "wolf",
    seer: "eye", witch: "flask", hunter: "crosshair", cupid: "heart", villager: "house", villager_villager: "house",
    savior: "shield", thief: "mask"};
  var last = "";

  function symbol(role, team, card) {
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    var shape = ROLE_SHAPE[role] || (team === "wolves" ? "wolf" : null);
    if (shape) {
      var path = document.createElementNS(SVG, "path");
      path.setAttribute("d", SHAPES[shape]); path.setAttribute("fill-rule", "evenodd");
      svg.appendChild(path);
    } else {
      var ring = document.createElementNS(SVG, "circle");
      ring.setAttribute("cx", "12"); ring.setAttribute("cy", "12"); ring.setAttribute("r", "11");
      var letter = document.createElementNS(SVG, "text");
      letter.setAttribute("x", "12"); letter.setAttribute("y", "17"); letter.setAttribute("text-anchor", "middle");
      letter.setAttribute("font-size", "14"); letter.setAttribute("fill", "#06080c");
      letter.textContent = Array.from(card || role || "?")[0];
      svg.appendChild(ring); svg.appendChild(letter);
    }
    return svg;
  }
  function div(cls, text) { var d = document.createElement("div"); d.className = cls; d.textContent = text || ""; return d; }
  function seatLabel(seats, n) {
    var s = seats[n - 1];
    return s && s.name ? n + " " + s.name : String(n);
  }

  function draw(v) {
    document.body.setAttribute("data-mode", v.mode);
    if (v.mode === "night") { $("night").textContent = v.title; return; }
    $("title").textContent = v.title; $("day").textContent = v.day; $("timer").textContent = v.timer;
    var table = $("table"), middle = $("middle");
    Array.prototype.slice.call(table.querySelectorAll(".seat")).forEach(function (e) { table.removeChild(e); });
    var voted = {};
    v.votes.forEach(function (pair) { if (pair[1] !== null) { voted[pair[1]] = (voted[pair[1]] || 0) + 1; } });
    var n = v.seats.length;
    v.seats.forEach(function (s, i) {
      var card = div("seat" + (s.alive ? "" : " dead") + (voted[s.n] ? " voted" : "")
                     + (s.team ? " team-" + (s.team === "village" || s.team === "wolves" ? s.team : "other") : ""));
      var angle = -Math.PI / 2 + 2 * Math.PI * i / n;
      card.style.left = (50 + 43 * Math.cos(angle)) + "%";
      card.style.top = (50 + 38 * Math.sin(angle)) + "%";
      card.setAttribute("data-seat", String(s.n));
      card.appendChild(div("n", String(s.n)));
      card.appendChild(div("name", s.name));
      if (s.captain) { card.appendChild(div("captain", "\u2605 " + s.captain)); }
      card.appendChild(div("status", s.status));
      if (s.role) {
        var role = div("role", ""); role.appendChild(symbol(s.role, s.team, s.card)); role.appendChild(div("card", s.card));
        card.appendChild(role);
      }
      table.insertBefore(card, middle);
    });
    $("over").textContent = v.over;
    var votes = $("votes"); votes.textContent = "";
    v.votes.forEach(function (pair) {
      votes.appendChild(div("voter", seatLabel(v.seats, pair[0])));
      votes.appendChild(div("arrow", "\u2192"));
      votes.appendChild(div("target", pair[1] === null ? L.nobody : seatLabel(v.seats, pair[1])));
    });
    if (v.votes.length) {
      var counts = Object.keys(voted).sort(function (a, b) { return voted[b] - voted[a]; })
        .map(function (t) { return seatLabel(v.seats, Number(t)) + " \u00d7" + voted[t]; });
      votes.appendChild(div("tally", (L.votes || "") + ": " + counts.join(" \u00b7 ")));
    }
    var pub = $("public"); pub.textContent = "";
    v.public.forEach(function (line) { pub.appendChild(div("line", line)); });
  }

  function connect() {
    var ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/tv/ws");
    ws.binaryType = "arraybuffer";
    ws.onopen = function () { $("status").textContent = L.connected; };
    ws.onmessage = function (e) {
      var text = new TextDecoder().decode(new Uint8Array(e.data));
      if (text === last) { return; }  // the same board again, on the beat
      last = text;
      draw(JSON.parse(text));
    };
    ws.onclose = function () { $("status").textContent = L.reconnecting; last = ""; setTimeout(connect, 1000); };
  }
  $("status").textContent = L.connecting;
  connect();
})();
