/* "Your table is ready" on every page a player has open: /ws/tournaments/me/ sends the
   player's tournament matches in play, rendered by the server; the page shows the banner
   (a match whose own page this is is left out). Reconnects with backoff; 4401/4403 stop. */
(function () {
  "use strict";
  var delay = 1000;
  function show(html) {
    var slot = document.getElementById("table-ready");
    if (!slot) { return; }
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.firstElementChild;
    if (!fresh) { return; }
    var items = fresh.querySelectorAll(".table-ready-item");
    var left = 0;
    for (var i = 0; i < items.length; i++) {
      if (items[i].getAttribute("data-href") === location.pathname) { items[i].remove(); } else { left++; }
    }
    fresh.hidden = left === 0;
    slot.replaceWith(fresh);
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
