// One seat's phone: its card, its private panel, its answers. Everything to and from the laptop is
// sealed with the seat's key (NaCl secretbox, TweetNaCl), which is only in this page's URL fragment.
// See docs/phones.md. The phone never makes a sound and never vibrates.
(function () {
  "use strict";
  var FRAME = 2048;
  // The page's words in the table's language (the voice pack's [phone] block, put in the page by the laptop).
  var L = JSON.parse(document.getElementById("labels").textContent);
  var REFUSED = {4401: L.refused_link, 4409: L.refused_taken, 4410: L.refused_other};
  var token = location.pathname.split("/").pop();
  var key = fromB64(location.hash.slice(1).replace(/-/g, "+").replace(/_/g, "/"));
  var device = localStorage.getItem("narrator-device");
  if (!device) {
    device = hex(nacl.randomBytes(16));
    localStorage.setItem("narrator-device", device);
  }
  var ws = null, challenge = null, sent = 0, heard = 0, view = null, pending = null, stopped = false;
  var $ = function (id) { return document.getElementById(id); };

  function hex(bytes) { return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join(""); }
  function fromB64(s) { while (s.length % 4) { s += "="; } var bin = atob(s), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { out[i] = bin.charCodeAt(i); } return out; }
  function toB64(bytes) { var s = ""; for (var i = 0; i < bytes.length; i++) { s += String.fromCharCode(bytes[i]); } return btoa(s); }

  function seal(message) {
    sent += 1;
    message.c = challenge; message.n = sent;
    var text = JSON.stringify(message);
    while (text.length < FRAME) { text += " "; }
    var plain = new Uint8Array(FRAME);
    for (var i = 0; i < FRAME; i++) { plain[i] = text.charCodeAt(i) & 0x7f; }
    var nonce = nacl.randomBytes(24);
    var box = nacl.secretbox(plain, nonce, key);
    var all = new Uint8Array(24 + box.length); all.set(nonce); all.set(box, 24);
    return toB64(all);
  }
  function unseal(text) {
    var raw = fromB64(text);
    var plain = nacl.secretbox.open(raw.subarray(24), raw.subarray(0, 24), key);
    if (!plain) { return null; }
    var message = JSON.parse(String.fromCharCode.apply(null, plain));
    if (message.c !== challenge || !(message.n > heard)) { return null; }
    heard = message.n;
    return message;
  }
  function send(message) { if (ws && ws.readyState === 1) { ws.send(seal(message)); } }

  // Nothing of the seat stays on a page that is no longer its phone's (the game over, another phone).
  function wipe() {
    view = null; pending = null; seenSent = false;
    $("seat").textContent = ""; $("lines").textContent = ""; $("choices").textContent = "";
    $("note").textContent = ""; $("echo").textContent = "";
    hideCard();
    document.body.setAttribute("data-mode", "none");
  }
  function render(v) {
    if (typeof v.seat !== "number") { return; }  // the laptop has not dealt yet: nothing to show
    if (!view || view.mode !== v.mode) { seenSent = false; }
    view = v;
    $("seat").textContent = L.seat.replace("{seat}", String(v.seat));
    var lines = $("lines"); lines.textContent = "";
    (v.lines || []).forEach(function (line) { var d = document.createElement("div"); d.textContent = line; lines.appendChild(d); });
    var choices = $("choices"); choices.textContent = "";
    // At the deal the view's one choice is the seat itself: sent once the card was seen, not a button.
    (v.mode === "deal" ? [] : v.choices || []).forEach(function (c) {
      var b = document.createElement("button");
      b.type = "button"; b.textContent = c[1]; b.className = typeof c[0] === "number" ? "seat" : "word";
      b.setAttribute("data-choice", String(c[0]));
      b.addEventListener("click", function () { answer(c); });
      choices.appendChild(b);
    });
    $("note").textContent = v.note || "";
    if (v.mode !== "panel") { $("echo").textContent = ""; }
    document.body.setAttribute("data-view", String(v.id));
    document.body.setAttribute("data-mode", v.mode);
  }
  function answer(c) {
    var message = {t: "answer", v: view.id, choice: c[0]};
    if (view.mode !== "deal") { $("echo").textContent = L.sent.replace("{choice}", c[1]); }
    if (view.night) { pending = message; } else { send(message); }  // at night: on the next beat only
  }

  var card = $("card"), shown = false, seenSent = false;
  function showCard(e) {
    if (e) { e.preventDefault(); }
    if (view && view.card) { card.textContent = view.card; card.className = "shown"; shown = true; }
  }
  function hideCard() {
    card.textContent = L.hold; card.className = "";
    if (shown && view && view.mode === "deal" && !seenSent) { seenSent = true; answer(view.choices[0]); }
    shown = false;
  }
  ["mousedown", "touchstart", "pointerdown"].forEach(function (n) { card.addEventListener(n, showCard); });
  ["mouseup", "mouseleave", "touchend", "touchcancel", "pointerup", "pointercancel", "blur"].forEach(function (n) { card.addEventListener(n, hideCard); });
  window.addEventListener("blur", hideCard);

  function connect() {
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + token;
    ws = new WebSocket(url);
    challenge = null; sent = 0; heard = 0;
    ws.onmessage = function (e) {
      if (challenge === null) {
        challenge = JSON.parse(e.data).c;
        ws.send(seal({t: "hello", device: device}));
        $("status").textContent = L.connected;
        return;
      }
      var message = unseal(e.data);
      if (!message) { $("status").textContent = L.dropped; return; }
      if (message.t === "view") {
        if (message.view.night) {  // the night's schedule: one message back for every one received
          send(pending || {t: "idle"}); pending = null;
        }
        render(message.view);
      }
    };
    ws.onclose = function (e) {
      if (REFUSED[e.code]) { stopped = true; wipe(); $("status").textContent = REFUSED[e.code]; return; }
      $("status").textContent = L.reconnecting;
      if (!stopped) { setTimeout(connect, 500); }
    };
  }
  $("status").textContent = L.connecting;
  hideCard();
  connect();
})();
