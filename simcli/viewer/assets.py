"""The viewer page's markup, style and script (inline in every page: it opens from disk
with no server and makes no network request). ``%%NAME%%`` marks are filled by
:func:`simcli.viewer.page.render_page`."""

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%%TITLE%%</title>
<style>%%STYLE%%</style>
</head>
<body>
<header>
<h1>%%TITLE%%</h1>
<p class="facts">%%FACTS%%</p>
</header>
%%FAILURE%%
<nav class="controls" aria-label="step through the game">
<button type="button" id="first" title="the setup (Home)">|&#x25C0;</button>
<button type="button" id="prev" title="one ply back (&#x2190;)">&#x25C0;</button>
<button type="button" id="next" title="one ply on (&#x2192;)">&#x25B6;</button>
<button type="button" id="last" title="the last ply (End)">&#x25B6;|</button>
<input type="range" id="slider" min="0" max="0" value="0" aria-label="ply">
<label>go to ply <input type="number" id="jump" min="0" value="0"></label>
<span id="plylabel"></span>
<label id="seenby-label">seen by <select id="seenby"></select></label>
</nav>
<main>
<div id="board" class="board-box"></div>
<aside>
<p id="turn"></p>
<p id="entry"></p>
<p id="scores"></p>
<ol id="moves" start="0"></ol>
</aside>
</main>
%%DATA%%
<script>%%SCRIPT%%</script>
</body>
</html>
"""

STYLE = """
body { font-family: sans-serif; margin: 1em; color: #222; }
h1 { font-size: 1.3em; margin: 0 0 .2em 0; }
.facts { margin: 0 0 .8em 0; color: #555; }
.failure { background: #fdecea; border: 1px solid #c0392b; padding: .5em .8em;
  margin-bottom: .8em; }
.controls { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin-bottom: .8em; }
.controls button { font-size: 1.1em; min-width: 2.4em; }
#slider { flex: 1 1 16em; }
#jump { width: 5em; }
main { display: flex; gap: 1.5em; align-items: flex-start; }
.board-box { flex: 0 1 auto; overflow: auto; max-width: 70vw; }
.board-box svg { max-width: 100%; height: auto; }
.text-board { font-size: 12px; background: #f6f6f6; padding: .6em; }
aside { flex: 1 1 18em; min-width: 16em; }
#turn { font-weight: bold; }
#entry.chance { color: #7d3c98; }
#moves { max-height: 60vh; overflow: auto; font-family: monospace; font-size: 13px;
  padding-left: 3.5em; border: 1px solid #ddd; margin: 0; }
#moves li { cursor: pointer; padding: 1px 4px; }
#moves li.chance { color: #7d3c98; font-style: italic; }
#moves li.current { background: #fff3b0; outline: 1px solid #d4ac0d; }
#moves li.failed { background: #fdecea; color: #c0392b; }
#moves li.unreached { color: #aaa; cursor: default; }
"""

SCRIPT = r"""
(function () {
  "use strict";
  var plain = document.getElementById("view-data");
  if (plain) {
    start(JSON.parse(plain.textContent));
  } else {
    var packed = document.getElementById("view-data-gz").textContent;
    var bytes = Uint8Array.from(atob(packed), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    new Response(stream).text().then(function (text) { start(JSON.parse(text)); });
  }

  // The boards' piece numbers (simcli/viewer/pack.py): each written as a change of an
  // earlier board; a board's markup is joined only when it is shown.
  function unpack(encoded) {
    var ids = [];
    for (var i = 0; i < encoded.length; i++) {
      var ref = encoded[i][0], head = encoded[i][1], tail = encoded[i][2];
      var middle = encoded[i][3];
      if (ref < 0) {
        ids.push(middle);
      } else {
        var base = ids[ref];
        ids.push(base.slice(0, head).concat(middle, base.slice(base.length - tail)));
      }
    }
    return ids;
  }

  function start(data) {
    var boardIds = unpack(data.boards);
    var boardHtml = function (n) {
      return boardIds[n].map(function (piece) { return data.pieces[piece]; }).join("");
    };
    var last = data.frames.length - 1;
    var ply = 0, observer = 0;
    var byId = function (id) { return document.getElementById(id); };
    var board = byId("board"), slider = byId("slider"), jump = byId("jump");
    var seenby = byId("seenby"), moves = byId("moves");
    var failedAt = data.failure && data.failure.ply !== null ? data.failure.ply : -1;

    slider.max = String(last);
    jump.max = String(last);
    document.body.dataset.plies = String(data.plies);
    document.body.dataset.viewable = String(last);
    data.observers.forEach(function (name, i) {
      var option = document.createElement("option");
      option.value = String(i);
      option.textContent = name;
      seenby.appendChild(option);
    });
    if (data.observers.length < 2) { byId("seenby-label").hidden = true; }

    var items = [];
    var setup = document.createElement("li");
    setup.textContent = "setup";
    items.push(setup);
    data.entries.forEach(function (text, i) {
      var li = document.createElement("li");
      var frame = data.frames[i + 1];
      if (data.chance[i]) {
        li.classList.add("chance");
        li.textContent = text;
      } else {
        var seat = frame ? frame.seat : null;
        li.textContent = (seat === null ? "" : "seat " + seat + ": ") + text;
      }
      if (i + 1 === failedAt) {
        li.classList.add("failed");
        li.title = data.failure.message;
        li.textContent += "  (fails verification)";
      } else if (i + 1 > last) {
        li.classList.add("unreached");
      }
      items.push(li);
    });
    items.forEach(function (li, i) {
      li.dataset.ply = String(i);
      li.addEventListener("click", function () { if (i <= last) { show(i); } });
      moves.appendChild(li);
    });

    function scoresText(scores, final) {
      if (!scores) { return "scores: given by the rules at the end"; }
      return (final ? "final scores: " : "scores so far: ") + scores.map(function (s, i) {
        var name = data.seats[i] !== undefined ? " (" + data.seats[i] + ")" : "";
        return "seat " + i + name + " " + s;
      }).join(", ");
    }

    function show(target) {
      ply = Math.max(0, Math.min(last, target | 0));
      var frame = data.frames[ply];
      board.innerHTML = boardHtml(frame.boards[observer]);
      board.dataset.observer = String(observer);
      document.body.dataset.ply = String(ply);
      slider.value = String(ply);
      jump.value = String(ply);
      byId("plylabel").textContent = "ply " + ply + " of " + data.plies;
      byId("turn").textContent = frame.turn;
      var entry = byId("entry");
      entry.classList.toggle("chance", frame.chance);
      if (frame.entry === null) {
        entry.textContent = "the setup";
      } else if (frame.chance) {
        entry.textContent = "chance event: " + frame.entry;
      } else {
        entry.textContent = "seat " + frame.seat + " (" + data.seats[frame.seat] + ") played "
          + frame.entry;
      }
      byId("scores").textContent = scoresText(frame.scores, frame.turn === "game over");
      items.forEach(function (li, i) { li.classList.toggle("current", i === ply); });
      var current = items[ply];
      var top = current.offsetTop;
      if (top < moves.scrollTop || top > moves.scrollTop + moves.clientHeight - 20) {
        moves.scrollTop = top - moves.clientHeight / 2;
      }
    }

    byId("first").addEventListener("click", function () { show(0); });
    byId("prev").addEventListener("click", function () { show(ply - 1); });
    byId("next").addEventListener("click", function () { show(ply + 1); });
    byId("last").addEventListener("click", function () { show(last); });
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    jump.addEventListener("change", function () { show(Number(jump.value)); });
    seenby.addEventListener("change", function () { observer = Number(seenby.value); show(ply); });
    document.addEventListener("keydown", function (event) {
      var tag = event.target && event.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") { return; }
      var to = {ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last}[event.key];
      if (to !== undefined) { event.preventDefault(); show(to); }
    });

    var wanted = /ply=(\d+)/.exec(location.hash);
    var seat = /seat=(\d+)/.exec(location.hash);
    if (seat && Number(seat[1]) + 1 < data.observers.length) {
      observer = Number(seat[1]) + 1;
      seenby.value = String(observer);
    }
    show(wanted ? Number(wanted[1]) : 0);
    document.body.dataset.ready = "1";
  }
})();
"""
