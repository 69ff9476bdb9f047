// One seat's phone: its card, its private panel, its answers. Everything to and from the laptop is
// sealed (NaCl secretbox, TweetNaCl): the hello with the seat's key, which is only in this page's
// URL fragment; the rest with the connection's own key, from this device's X25519 secret (kept in
// this browser, never sent) and the laptop's key for the connection. See docs/phones.md.
// The wire tells nothing: the page answers every message from the laptop with exactly one of its
// own, of one length, a tap or nothing, and sends nothing else.
// The phone never makes a sound and never vibrates.
(function () {
  "use strict";
  var UP = 256;  // bytes of every message this page sends (the laptop says it in its challenge)
  // The page's words in the table's language (the voice pack's [phone] block, put in the page by the laptop).
  var L = JSON.parse(document.getElementById("labels").textContent);
  var REFUSED = {4401: L.refused_link, 4409: L.refused_taken, 4410: L.refused_other};
  var token = location.pathname.split("/").pop();
  var keyText = location.hash.slice(1);
  var key = fromB64(keyText);
  // This device: an X25519 key pair; its public half names the device, its secret never leaves the page.
  var device = null;
  try { device = nacl.box.keyPair.fromSecretKey(fromB64(localStorage.getItem("narrator-device-key") || "")); } catch (e) { device = null; }
  if (!device) {
    device = nacl.box.keyPair();
    localStorage.setItem("narrator-device-key", toB64(device.secretKey));
  }
  var ws = null, challenge = null, box = null, sent = 0, heard = 0, view = null, pending = null, stopped = false;
  // The table's names, by seat (public: the laptop sends them to every phone); asked once for this seat.
  var names = {}, namesOpen = false, seatNumber = null, asked = localStorage.getItem("narrator-named-" + token) === "yes";
  // The view for the dead, in two frames of its own beside the view: every card, and the awake role's panel.
  var deadCards = null, deadAwake = null;
  var $ = function (id) { return document.getElementById(id); };

  function fromB64(s) { s = s.replace(/-/g, "+").replace(/_/g, "/"); while (s.length % 4) { s += "="; }
    var bin = atob(s), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { out[i] = bin.charCodeAt(i); } return out; }
  function toB64(bytes) { var s = ""; for (var i = 0; i < bytes.length; i++) { s += String.fromCharCode(bytes[i]); }
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""); }

  function seal(message) {
    sent += 1;
    message.c = challenge; message.n = sent;
    var data = new TextEncoder().encode(JSON.stringify(message));
    var plain = new Uint8Array(UP); plain.fill(32); plain.set(data.subarray(0, UP));
    var nonce = nacl.randomBytes(24);
    var sealed = nacl.secretbox(plain, nonce, box || key);
    var all = new Uint8Array(24 + sealed.length); all.set(nonce); all.set(sealed, 24);
    return all;
  }
  function unseal(data) {
    var raw = new Uint8Array(data);
    var plain = nacl.secretbox.open(raw.subarray(24), raw.subarray(0, 24), box);
    if (!plain) { return null; }
    var message = JSON.parse(new TextDecoder().decode(plain));
    if (message.c !== challenge || !(message.n > heard)) { return null; }
    heard = message.n;
    return message;
  }
  function send(message) { if (ws && ws.readyState === 1) { ws.send(seal(message)); } }
  function agree(server) {  // the connection's key: SHA-512 of the seat's key and the X25519 secret, first 32 bytes
    var shared = nacl.box.before(server, device.secretKey);
    var both = new Uint8Array(key.length + shared.length); both.set(key); both.set(shared, key.length);
    return nacl.hash(both).subarray(0, 32);
  }

  // A seat's button and the page's header with the seat's name, as text ("6 Ann").
  function label(c) { return typeof c[0] === "number" && names[c[0]] ? c[1] + " " + names[c[0]] : c[1]; }
  // A seat's button: its number, and under it the seat's name (cut to the button, never wrapped).
  function fill(b, c) {
    b.textContent = c[1];
    if (typeof c[0] === "number" && names[c[0]]) {
      var n = document.createElement("span"); n.className = "name"; n.textContent = names[c[0]]; b.appendChild(n);
    }
  }
  function header(v) {
    $("seat").textContent = L.seat.replace("{seat}", String(v.seat)) + (names[v.seat] ? " \u00b7 " + names[v.seat] : "");
  }
  function named(message) {
    names = message.names || {}; namesOpen = !!message.open; seatNumber = message.seat;
    $("choices").className = Object.keys(names).length ? "named" : "";
    if (view) {
      header(view);
      Array.prototype.forEach.call($("choices").querySelectorAll("button"), function (b, i) {
        if (view.choices[i]) { fill(b, view.choices[i]); }
      });
    }
    dead();
    askName();
  }
  // "Your name?" once, while the table is joining, for a seat that has none yet (docs/names.md).
  function askName() {
    var form = $("name");
    form.hidden = !(namesOpen && !asked && seatNumber && !names[seatNumber]);
  }
  $("name").addEventListener("submit", function (e) {
    e.preventDefault();
    var typed = Array.from($("name-input").value.trim()).slice(0, 24).join("");
    asked = true; localStorage.setItem("narrator-named-" + token, "yes");
    $("name").hidden = true;
    if (typed) { pending = {t: "name", name: typed}; }  // it goes with the answer to the next message
  });
  $("name-ok").textContent = L.name_ok; $("name-label").textContent = L.name;

  // Nothing of the seat stays on a page that is no longer its phone's (the game over, another phone).
  function wipe() {
    view = null; pending = null; seenSent = false;
    $("seat").textContent = ""; $("lines").textContent = ""; $("choices").textContent = "";
    $("note").textContent = ""; $("echo").textContent = "";
    deadCards = null; deadAwake = null; $("dead").textContent = ""; $("dead").hidden = true; $("name").hidden = true;
    hideCard();
    document.body.setAttribute("data-mode", "none");
  }
  function render(v) {
    if (typeof v.seat !== "number") { return; }  // the laptop has not dealt yet: nothing to show
    if (view && v.id === view.id && v.seat === view.seat) { return; }  // the same view again, on the beat
    if (!view || view.mode !== v.mode) { seenSent = false; }
    view = v;
    header(v);
    askName();
    var lines = $("lines"); lines.textContent = "";
    (v.lines || []).forEach(function (line) { var d = document.createElement("div"); d.textContent = line; lines.appendChild(d); });
    var choices = $("choices"); choices.textContent = "";
    // At the deal the view's one choice is the seat itself: sent once the card was seen, not a button.
    (v.mode === "deal" ? [] : v.choices || []).forEach(function (c) {
      var b = document.createElement("button");
      b.type = "button"; fill(b, c); b.className = typeof c[0] === "number" ? "seat" : "word";
      b.setAttribute("data-choice", String(c[0]));
      b.addEventListener("click", function () { answer(c); });
      choices.appendChild(b);
    });
    $("note").textContent = v.note || "";
    if (v.mode !== "panel") { $("echo").textContent = ""; }
    document.body.setAttribute("data-view", String(v.id));
    document.body.setAttribute("data-mode", v.mode);
  }
  // The view for the dead (an option): every card, and the night's panel as the awake role sees it.
  function dead() {
    var panel = $("dead"); panel.textContent = ""; panel.hidden = !deadCards;
    if (!deadCards) { return; }
    var add = function (cls, text, parent) {
      var e = document.createElement("div"); e.className = cls; e.textContent = text; (parent || panel).appendChild(e); return e;
    };
    add("warning", deadCards.warning);
    if (deadAwake && deadAwake.awake) {
      add("awake", deadAwake.awake);
      deadAwake.lines.forEach(function (line) { add("line", line); });
    }
    var cards = add("cards", "");
    deadCards.cards.forEach(function (c) { add("card", label([c[0], String(c[0])]) + ": " + c[1], cards); });
  }
  function answer(c) {
    if (view.mode !== "deal") { $("echo").textContent = L.sent.replace("{choice}", c[1]); }
    pending = {t: "answer", v: view.id, choice: c[0]};  // it goes with the answer to the next message
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
    ws.binaryType = "arraybuffer";
    challenge = null; box = null; sent = 0; heard = 0;
    ws.onmessage = function (e) {
      if (challenge === null) {
        var first = JSON.parse(e.data);
        challenge = first.c; UP = first.up;
        ws.send(seal({t: "hello", device: toB64(device.publicKey)}));  // sealed with the seat's key
        box = agree(fromB64(first.s));
        $("status").textContent = L.connected;
        return;
      }
      // One message back for every one received, before anything else, whatever it says.
      send(pending || {t: "idle"}); pending = null;
      var message = unseal(e.data);
      if (!message) { $("status").textContent = L.dropped; return; }
      if (message.key && message.key !== keyText) {  // a confirmed move: this seat's new key, kept in the link
        keyText = message.key; key = fromB64(keyText);
        history.replaceState(null, "", location.pathname + "#" + keyText);
      }
      if (message.t === "view") { render(message.view); } else if (message.t === "names") { named(message); }
      else if (message.t === "dead") { deadCards = message; dead(); } else if (message.t === "awake") { deadAwake = message; dead(); }
    };
    ws.onclose = function (e) {
      if (e.code === 4410) { wipe(); $("status").textContent = REFUSED[e.code]; takeBack(); return; }
      if (REFUSED[e.code]) { stopped = true; wipe(); $("status").textContent = REFUSED[e.code]; return; }
      $("status").textContent = L.reconnecting;
      if (!stopped) { setTimeout(connect, 500); }
    };
  }
  // Replaced by another page of this device (4410): the page in front takes its seat back, after a
  // while; one in the background waits until it is in front again.
  function takeBack() {
    if (document.visibilityState === "hidden") { waiting = true; return; }
    setTimeout(connect, 3000);
  }
  var waiting = false;
  document.addEventListener("visibilitychange", function () {
    if (waiting && document.visibilityState === "visible") { waiting = false; setTimeout(connect, 500); }
  });

  // Keep the page awake through the night (a locked or sleeping phone stops answering, and the
  // wire would show it): a silent looping video, started by the first touch (NoSleep.js's media;
  // the Wake Lock API needs a secure context, which a page on the table's Wi-Fi is not). It is
  // fetched with the page, never at the touch: a fetch then would tell the Wi-Fi who touched when.
  var awake = document.createElement("video");
  awake.setAttribute("playsinline", ""); awake.setAttribute("muted", ""); awake.muted = true; awake.loop = true;
  var kind = awake.canPlayType("video/webm") ? "webm" : "mp4";
  fetch("/static/awake." + kind).then(function (r) { return r.blob(); }).then(function (blob) {
    awake.src = URL.createObjectURL(blob);
  }).catch(function () {});
  awake.addEventListener("playing", function () { document.body.setAttribute("data-awake", "yes"); });
  function keepAwake() { if (awake.paused && awake.src) { awake.play().catch(function () {}); } }
  ["touchstart", "pointerdown", "click"].forEach(function (n) { document.addEventListener(n, keepAwake, true); });

  $("status").textContent = L.connecting;
  hideCard();
  connect();
})();
