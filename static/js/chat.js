// Chat rooms show their newest line: scroll each .chat-lines box to the bottom when it is
// loaded and whenever a line arrives over the socket (an out-of-band swap into it).
(function () {
  function stick(box) { if (box) { box.scrollTop = box.scrollHeight; } }
  function all() { document.querySelectorAll(".chat-lines").forEach(stick); }
  document.addEventListener("DOMContentLoaded", all);
  document.addEventListener("htmx:afterSettle", all);
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.classList && target.classList.contains("chat-lines")) { stick(target); }
  });
})();
