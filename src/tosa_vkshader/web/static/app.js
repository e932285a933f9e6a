// The playground: send the editor's text to POST /v1/check as the user types (debounced),
// list the diagnostics and highlight where they point. No framework, no build step.
"use strict";

(function () {
  const DEBOUNCE_MS = 250;
  const COLOR_LIMIT = 256 * 1024; // above this many characters, skip syntax colouring
  const STORAGE_KEY = "tosa-vkshader.playground.text";
  const SEVERITY_RANK = { info: 1, warning: 2, error: 3 };
  const RANK_NAME = ["", "info", "warning", "error"];

  const $ = (id) => document.getElementById(id);
  const source = $("source");
  const highlight = $("highlight");
  const gutter = $("gutter");
  const list = $("diagnostics");
  const empty = $("empty");
  const summary = $("summary");
  const badge = $("summary-badge");
  const detail = $("summary-detail");
  const language = $("language");
  const semantics = $("semantics");
  const targetEnv = $("target-env");

  let diagnostics = []; // the last answer's diagnostics, with offsets into the text
  let active = -1; // index of the diagnostic under the pointer or selected
  let timer = 0;
  let sequence = 0;
  let inFlight = null;

  // -- text positions ------------------------------------------------------------------

  function lineStarts(text) {
    const starts = [0];
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    return starts;
  }

  // Offset (UTF-16) of a 1-based line and column counted in code points, as the server
  // counts them.
  function offsetAt(text, starts, line, column) {
    if (line < 1) return 0;
    if (line > starts.length) return text.length;
    let offset = starts[line - 1];
    const end = line < starts.length ? starts[line] - 1 : text.length;
    for (let c = 1; c < column && offset < end; c++) {
      offset += text.codePointAt(offset) > 0xffff ? 2 : 1;
    }
    return offset;
  }

  // The text range a diagnostic covers: [start, end). A range over several lines (a whole
  // object) is shown on its first line only; an empty one grows to the word it starts.
  function rangeOf(text, starts, loc) {
    if (!loc) return null;
    const start = offsetAt(text, starts, loc.line, loc.column);
    let end = loc.end_line ? offsetAt(text, starts, loc.end_line, loc.end_column) : start;
    const lineEnd = text.indexOf("\n", start) < 0 ? text.length : text.indexOf("\n", start);
    if (end > lineEnd) end = lineEnd > start ? lineEnd : start + 1;
    if (end <= start) {
      end = start;
      while (end < lineEnd && /[\w"$.-]/.test(text[end])) end++;
      if (end === start) end = Math.min(start + 1, text.length);
    }
    return { start, end };
  }

  // -- rendering the editor's mirror -----------------------------------------------------

  const TOKEN = /"(?:[^"\\\n]|\\.)*"(\s*:)?|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\b(?:true|false|null)\b|[{}[\],:]/g;
  const TOKEN_CLASS = ["", "t-key", "t-str", "t-num", "t-lit", "t-punct"];

  function tokenClasses(text) {
    const classes = new Uint8Array(text.length);
    if (text.length > COLOR_LIMIT) return classes;
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
      const c = m[0][0];
      let kind = 5;
      if (c === '"') kind = m[1] ? 1 : 2;
      else if (c === "-" || (c >= "0" && c <= "9")) kind = 3;
      else if (c === "t" || c === "f" || c === "n") kind = 4;
      const length = kind === 1 ? m[0].length - m[1].length : m[0].length;
      classes.fill(kind, m.index, m.index + length);
    }
    return classes;
  }

  function escapeHtml(text) {
    return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  }

  function renderMirror() {
    const text = source.value;
    const colors = tokenClasses(text);
    const marks = new Uint8Array(text.length); // severity rank of the worst mark per char
    const owner = new Int32Array(text.length).fill(-1); // the diagnostic shown per char
    diagnostics.forEach((d, index) => {
      if (!d.range) return;
      const rank = SEVERITY_RANK[d.severity] || 1;
      for (let i = d.range.start; i < d.range.end && i < text.length; i++) {
        if (rank >= marks[i] || index === active) {
          marks[i] = Math.max(marks[i], rank);
          if (owner[i] < 0 || index === active) owner[i] = index;
        }
      }
    });
    const parts = [];
    let i = 0;
    while (i < text.length) {
      let j = i + 1;
      while (j < text.length && colors[j] === colors[i] && marks[j] === marks[i] && owner[j] === owner[i]) j++;
      let html = escapeHtml(text.slice(i, j));
      if (colors[i]) html = `<span class="${TOKEN_CLASS[colors[i]]}">${html}</span>`;
      if (marks[i]) {
        const cls = `mark-${RANK_NAME[marks[i]]}${owner[i] === active ? " mark-active" : ""}`;
        html = `<mark class="${cls}" data-index="${owner[i]}">${html}</mark>`;
      }
      parts.push(html);
      i = j;
    }
    parts.push("\n "); // keeps the last line scrollable like the textarea's
    highlight.innerHTML = parts.join("");
    document.getElementById("editor").classList.toggle("plain", text.length > COLOR_LIMIT);
    renderGutter(text);
    syncScroll();
  }

  function renderGutter(text) {
    const lines = lineStarts(text).length;
    const worst = new Map();
    diagnostics.forEach((d) => {
      if (!d.location) return;
      const rank = SEVERITY_RANK[d.severity] || 1;
      worst.set(d.location.line, Math.max(worst.get(d.location.line) || 0, rank));
    });
    const rows = [];
    for (let n = 1; n <= lines; n++) {
      const rank = worst.get(n);
      rows.push(rank ? `<div class="gl gl-${RANK_NAME[rank]}">${n}</div>` : `<div class="gl">${n}</div>`);
    }
    gutter.innerHTML = rows.join("");
  }

  function syncScroll() {
    highlight.scrollTop = source.scrollTop;
    highlight.scrollLeft = source.scrollLeft;
    gutter.scrollTop = source.scrollTop;
  }

  // -- the diagnostics list ----------------------------------------------------------------

  function inlineCode(text) {
    return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
  }

  function renderList() {
    list.innerHTML = "";
    diagnostics.forEach((d, index) => {
      const item = document.createElement("li");
      item.className = `diag sev-${d.severity}${index === active ? " active" : ""}`;
      item.dataset.index = String(index);
      item.dataset.code = d.code;
      item.tabIndex = 0;
      const where = d.location ? `${d.location.line}:${d.location.column}` : "";
      item.innerHTML =
        `<div class="diag-head">` +
        `<span class="sev">${escapeHtml(d.severity)}</span>` +
        `<a class="code" href="${escapeHtml(d.docs)}" target="_blank" rel="noopener" title="What ${escapeHtml(d.code)} checks, and why">${escapeHtml(d.code)}</a>` +
        `<span class="rule">${escapeHtml(d.name)}</span>` +
        `<span class="where">${where}</span>` +
        `</div>` +
        `<p class="message">${inlineCode(d.message)}</p>` +
        (d.hint ? `<p class="hint"><span class="hint-label">fix</span><span>${inlineCode(d.hint)}</span></p>` : "");
      list.appendChild(item);
    });
    empty.hidden = diagnostics.length > 0 || summary.dataset.state !== "done";
  }

  function setActive(index) {
    if (index === active) return;
    active = index;
    for (const item of list.children) item.classList.toggle("active", Number(item.dataset.index) === active);
    renderMirror();
  }

  function reveal(index) {
    const d = diagnostics[index];
    if (!d || !d.range) return;
    setActive(index);
    source.focus();
    source.setSelectionRange(d.range.start, d.range.end);
    const lineHeight = parseFloat(getComputedStyle(source).lineHeight) || 20;
    const top = (d.location.line - 1) * lineHeight;
    if (top < source.scrollTop || top > source.scrollTop + source.clientHeight - 2 * lineHeight) {
      source.scrollTop = Math.max(0, top - 3 * lineHeight);
    }
    syncScroll();
    updateCursor();
  }

  list.addEventListener("click", (event) => {
    if (event.target.closest("a")) return; // the rule link opens the docs
    const item = event.target.closest("li.diag");
    if (item) reveal(Number(item.dataset.index));
  });
  list.addEventListener("keydown", (event) => {
    const item = event.target.closest("li.diag");
    if (item && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      reveal(Number(item.dataset.index));
    }
  });
  list.addEventListener("mouseover", (event) => {
    const item = event.target.closest("li.diag");
    if (item) setActive(Number(item.dataset.index));
  });
  list.addEventListener("mouseleave", () => setActive(-1));

  // -- summary -----------------------------------------------------------------------------

  function setSummary(state, text, more) {
    summary.dataset.state = state;
    badge.textContent = text;
    detail.textContent = more || "";
  }

  function summarize(result, elapsed) {
    const s = result.summary;
    const parts = [];
    if (s.errors) parts.push(`${s.errors} error${s.errors === 1 ? "" : "s"}`);
    if (s.warnings) parts.push(`${s.warnings} warning${s.warnings === 1 ? "" : "s"}`);
    if (s.infos) parts.push(`${s.infos} note${s.infos === 1 ? "" : "s"}`);
    const state = s.errors ? "errors" : s.warnings ? "warnings" : "clean";
    setSummary("done", parts.length ? parts.join(", ") : "No problems", `checked in ${Math.round(elapsed)} ms`);
    summary.dataset.result = state;
  }

  // -- checking --------------------------------------------------------------------------

  function requestBody() {
    return JSON.stringify({
      text: source.value,
      options: { workgroup_semantics: semantics.value, target_env: targetEnv.value },
    });
  }

  async function check() {
    const mine = ++sequence;
    if (inFlight) inFlight.abort();
    inFlight = new AbortController();
    const started = performance.now();
    setSummary("busy", "Checking…");
    let response, body;
    try {
      response = await fetch("/v1/check", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: requestBody(),
        signal: inFlight.signal,
      });
      body = await response.json();
    } catch (error) {
      if (error.name === "AbortError" || mine !== sequence) return;
      setSummary("failed", "Server unreachable", String(error.message || error));
      return;
    }
    if (mine !== sequence) return; // a newer check is on its way
    list.classList.remove("stale");
    if (!response.ok) {
      diagnostics = [];
      setSummary("failed", body.title || `HTTP ${response.status}`, body.detail || "");
      summary.dataset.result = "failed";
      renderList();
      renderMirror();
      return;
    }
    const text = source.value;
    const starts = lineStarts(text);
    diagnostics = body.files[0].diagnostics.map((d) => ({ ...d, range: rangeOf(text, starts, d.location) }));
    active = -1;
    summarize(body, performance.now() - started);
    renderList();
    renderMirror();
  }

  function schedule() {
    clearTimeout(timer);
    setSummary("busy", "Checking…");
    timer = setTimeout(check, DEBOUNCE_MS);
  }

  // -- language selector and examples ---------------------------------------------------

  const LANGUAGE_VALUE = /("shader_language"\s*:\s*)"(?:[^"\\\n]|\\.)*"|(\\"shader_language\\"\s*:\s*)\\"[^"\\\n]*\\"/;

  function shaderLanguageOf(text) {
    let value;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return null;
    }
    if (value && typeof value === "object" && "implementation_attrs" in value) {
      value = value.implementation_attrs;
      if (typeof value === "string") {
        try {
          value = JSON.parse(value);
        } catch (error) {
          return null;
        }
      }
    }
    return value && typeof value === "object" && typeof value.shader_language === "string" ? value.shader_language : null;
  }

  function isExample(text) {
    return text.trim() === "" || Object.values(window.EXAMPLES || {}).some((e) => e.trim() === text.trim());
  }

  function setText(text) {
    source.value = text;
    source.scrollTop = 0;
    source.scrollLeft = 0;
    onEdit();
  }

  function loadExample() {
    setText((window.EXAMPLES || {})[language.value] || "");
  }

  language.addEventListener("change", () => {
    const text = source.value;
    if (isExample(text)) {
      loadExample();
      return;
    }
    const match = LANGUAGE_VALUE.exec(text);
    if (!match) return;
    const replacement = match[1] !== undefined ? `${match[1]}"${language.value}"` : `${match[2]}\\"${language.value}\\"`;
    setText(text.slice(0, match.index) + replacement + text.slice(match.index + match[0].length));
  });

  function followLanguage() {
    const found = shaderLanguageOf(source.value);
    if (found !== null && [...language.options].some((o) => o.value === found)) language.value = found;
  }

  // -- wiring ----------------------------------------------------------------------------

  function updateCursor() {
    const before = source.value.slice(0, source.selectionStart);
    const line = before.split("\n").length;
    const column = [...before.slice(before.lastIndexOf("\n") + 1)].length + 1;
    $("cursor").textContent = `Ln ${line}, Col ${column}`;
  }

  function onEdit() {
    // Marks from the last answer no longer fit the text: show the text now, marks later.
    diagnostics = [];
    active = -1;
    list.classList.add("stale");
    renderMirror();
    followLanguage();
    try {
      localStorage.setItem(STORAGE_KEY, source.value);
    } catch (error) {
      /* private mode: nothing to keep */
    }
    schedule();
  }

  source.addEventListener("input", onEdit);
  source.addEventListener("scroll", syncScroll);
  for (const type of ["keyup", "click", "select"]) source.addEventListener(type, updateCursor);
  source.addEventListener("keydown", (event) => {
    if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault(); // indent instead of leaving the editor
      source.setRangeText("  ", source.selectionStart, source.selectionEnd, "end");
      onEdit();
    }
  });
  semantics.addEventListener("change", schedule);
  targetEnv.addEventListener("change", schedule);
  $("load-example").addEventListener("click", loadExample);
  highlight.addEventListener("click", () => source.focus());

  fetch("/healthz")
    .then((r) => r.json())
    .then((h) => {
      $("version").textContent = `tosa-vkshader ${h.version}`;
    })
    .catch(() => {});

  let saved = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch (error) {
    saved = null;
  }
  setText(saved || (window.EXAMPLES || {})[language.value] || "");
})();
