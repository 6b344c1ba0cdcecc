/* "Your table is ready" on every page a player has open: /ws/tournaments/me/ sends the
   player's tournament matches in play, rendered by the server; the page shows the banner
   (a match whose own page this is is left out). Reconnects with backoff; 4401/4403 stop. */
(function () {
  "use strict";
  var delay = 1000;
  var KEY = "mazziere.tableReadyHidden";
  function show(html) {
    var slot = document.getElementById("table-ready");
    if (!slot) { return; }
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.firstElementChild;
    if (!fresh) { return; }
    var hidden = dismissed();
    var items = fresh.querySelectorAll(".table-ready-item");
    var left = [];
    for (var i = 0; i < items.length; i++) {
      var id = items[i].getAttribute("data-match");
      if (items[i].getAttribute("data-href") === location.pathname || hidden.indexOf(id) >= 0) {
        items[i].remove();
      } else { left.push(id); }
    }
    fresh.hidden = left.length === 0;
    var close = fresh.querySelector(".table-ready-close");
    if (close) {
      close.addEventListener("click", function () {  /* hidden for these matches; a new one shows again */
        try { sessionStorage.setItem(KEY, JSON.stringify(hidden.concat(left))); } catch (err) { /* private mode */ }
        fresh.hidden = true;
      });
    }
    slot.replaceWith(fresh);
  }
  function dismissed() {
    try { return JSON.parse(sessionStorage.getItem(KEY) || "[]"); } catch (err) { return []; }
  }
  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(scheme + location.host + "/ws/tournaments/me/");
    ws.onopen = function () { delay = 1000; };
    ws.onmessage = function (e) {
      var data = null;
      try { data = JSON.parse(e.data); } catch (err) { return; }
      if (data && typeof data.html === "string") { show(data.html); }
    };
    ws.onclose = function (e) {
      if (e.code === 4401 || e.code === 4403) { return; }
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  if (document.getElementById("table-ready")) { connect(); }
})();
