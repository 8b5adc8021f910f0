// Steps a hand's replay: the buttons, and the left and right arrow keys. Every frame is
// already in the page (only the cards this reader may see); this only shows one at a time.
(function () {
  "use strict";
  var replay = document.getElementById("replay");
  if (!replay) { return; }
  var frames = replay.querySelectorAll(".frame");
  var at = replay.querySelector(".at");
  var shown = 0;
  function show(index) {
    shown = Math.max(0, Math.min(frames.length - 1, index));
    for (var i = 0; i < frames.length; i++) { frames[i].hidden = i !== shown; }
    at.textContent = String(shown + 1);
  }
  replay.querySelectorAll("button[data-step]").forEach(function (button) {
    button.addEventListener("click", function () {
      show(shown + Number(button.getAttribute("data-step")));
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.key === "ArrowRight") { show(shown + 1); event.preventDefault(); }
    if (event.key === "ArrowLeft") { show(shown - 1); event.preventDefault(); }
  });
}());
