// The playground: two panes, the op (JSON or TOSA MLIR) and its shader source, kept in
// sync; diagnostics from POST /v1/check, each one leading to its line in the right pane;
// mechanical repairs from POST /v1/fix; state in the URL for sharing. No framework, no
// build step, nothing loaded from elsewhere.
"use strict";

(function () {
  const DEBOUNCE_MS = 300; // re-check after a pause in typing (only when nothing compiles)
  const COLOR_LIMIT = 256 * 1024; // above this many characters, skip syntax colouring
  const STORAGE_KEY = "tosa-vkshader.playground.v2";
  const SEVERITY_RANK = { info: 1, warning: 2, error: 3 };
  const RANK_NAME = ["", "info", "warning", "error"];
  const EXAMPLES = window.EXAMPLES || {};

  const $ = (id) => document.getElementById(id);
  const source = $("source");
  const shader = $("shader");
  const list = $("diagnostics");
  const empty = $("empty");
  const summary = $("summary");
  const badge = $("summary-badge");
  const detail = $("summary-detail");
  const applyAll = $("apply-all");
  const mode = $("mode");
  const language = $("language");
  const semantics = $("semantics");
  const targetEnv = $("target-env");
  const targetDevice = $("target-device");

  const buffers = { json: "", mlir: "" }; // the op text of each mode: a switch keeps both
  let diagnostics = []; // the last answer's diagnostics, with ranges in either pane
  let fix = null; // the last /v1/fix answer for the op text as it is now
  let active = -1;
  let timer = 0;
  let sequence = 0;
  let inFlight = null;
  let shownLanguage = language.value; // to put the selector back when a switch is declined

  // -- text positions ------------------------------------------------------------------

  function lineStarts(text) {
    const starts = [0];
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    return starts;
  }

  // Offset (UTF-16) of a 1-based line and a column counted in code points, as the server
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

  // The text range a location covers: [start, end). A range over several lines is shown
  // on its first line only; an empty one grows to the word it starts.
  function rangeOf(text, starts, loc) {
    if (!loc || !(loc.line >= 1)) return null;
    const start = offsetAt(text, starts, loc.line, loc.column);
    let end = loc.end_line ? offsetAt(text, starts, loc.end_line, loc.end_column) : start;
    const lineEnd = text.indexOf("\n", start) < 0 ? text.length : text.indexOf("\n", start);
    if (end > lineEnd) end = lineEnd > start ? lineEnd : start + 1;
    if (end <= start) {
      end = start;
      while (end < lineEnd && /[\w"$.-]/.test(text[end])) end++;
      if (end === start) end = Math.min(start + 1, text.length);
    }
    return { start, end, line: loc.line };
  }

  // -- an editor: textarea over a highlighted mirror, with a gutter -----------------------

  const TOKEN = /"(?:[^"\\\n]|\\.)*"(\s*:)?|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\b(?:true|false|null)\b|[{}[\],:]/g;
  const TOKEN_CLASS = ["", "t-key", "t-str", "t-num", "t-lit", "t-punct"];

  function tokenClasses(text, colour) {
    const classes = new Uint8Array(text.length);
    if (!colour || text.length > COLOR_LIMIT) return classes;
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

  function makeEditor(root, textarea, colour) {
    const gutter = root.querySelector(".gutter");
    const highlight = root.querySelector(".highlight");
    const editor = { root, textarea, marks: [], activeLine: 0 };

    function sync() {
      highlight.scrollTop = textarea.scrollTop;
      highlight.scrollLeft = textarea.scrollLeft;
      gutter.scrollTop = textarea.scrollTop;
    }

    // marks: [{start, end, line, rank, index}] (index: the diagnostic's)
    editor.render = function () {
      const text = textarea.value;
      const colors = tokenClasses(text, colour && JSON_MODE());
      const marks = new Uint8Array(text.length);
      const owner = new Int32Array(text.length).fill(-1);
      for (const m of editor.marks) {
        for (let i = m.start; i < m.end && i < text.length; i++) {
          if (m.rank >= marks[i] || m.index === active) {
            marks[i] = Math.max(marks[i], m.rank);
            if (owner[i] < 0 || m.index === active) owner[i] = m.index;
          }
        }
      }
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
      root.classList.toggle("plain", text.length > COLOR_LIMIT);
      const worst = new Map();
      for (const m of editor.marks) worst.set(m.line, Math.max(worst.get(m.line) || 0, m.rank));
      const rows = [];
      const lines = lineStarts(text).length;
      for (let n = 1; n <= lines; n++) {
        const rank = worst.get(n);
        const cls = `gl${rank ? ` gl-${RANK_NAME[rank]}` : ""}${n === editor.activeLine ? " gl-active" : ""}`;
        rows.push(`<div class="${cls}">${n}</div>`);
      }
      gutter.innerHTML = rows.join("");
      sync();
    };

    // Scroll a range into the middle of the view, select it and mark its line.
    editor.reveal = function (range) {
      editor.activeLine = range.line;
      textarea.focus();
      textarea.setSelectionRange(range.start, range.end);
      const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 20;
      const top = (range.line - 1) * lineHeight;
      if (top < textarea.scrollTop || top > textarea.scrollTop + textarea.clientHeight - 2 * lineHeight) {
        textarea.scrollTop = Math.max(0, top - textarea.clientHeight / 3);
      }
      editor.render();
    };

    textarea.addEventListener("scroll", sync);
    highlight.addEventListener("click", () => textarea.focus());
    textarea.addEventListener("keydown", (event) => {
      if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey && !event.metaKey && !textarea.readOnly) {
        event.preventDefault(); // indent instead of leaving the editor
        document.execCommand("insertText", false, "  ");
      }
    });
    return editor;
  }

  const JSON_MODE = () => mode.value === "json";
  const opEditor = makeEditor($("op-editor"), source, true);
  const shaderEditor = makeEditor($("shader-editor"), shader, false);

  // -- the shader inside the op ------------------------------------------------------------

  // MLIR string escapes: \" \\ \n \t and two hex digits.
  function mlirDecode(text) {
    return text.replace(/\\(["\\nt]|[0-9a-fA-F]{2})/g, (all, e) => {
      if (e === "n") return "\n";
      if (e === "t") return "\t";
      if (e === '"' || e === "\\") return e;
      return String.fromCharCode(parseInt(e, 16));
    });
  }

  function mlirEncode(text) {
    return text.replace(/[\\"\n\t\x00-\x1f]/g, (c) => {
      const named = { "\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t" }[c];
      return named || "\\" + c.charCodeAt(0).toString(16).padStart(2, "0").toUpperCase();
    });
  }

  // The op's attribute object (the first one with shader code, else the first one) and a
  // way to write changed attributes back into the text, keeping the rest of it as it is
  // where that can be done in place. {error} when the text cannot be read.
  function findOp(text) {
    if (!JSON_MODE()) return findMlirOp(text);
    let value;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return { error: "the op is not valid JSON yet" };
    }
    const items = Array.isArray(value) ? value : [value];
    const found = [];
    items.forEach((item, index) => {
      if (!item || typeof item !== "object" || Array.isArray(item)) return;
      if ("implementation_attrs" in item) {
        let attrs = item.implementation_attrs;
        const encoded = typeof attrs === "string";
        if (encoded) {
          try {
            attrs = JSON.parse(attrs);
          } catch (error) {
            return;
          }
        }
        if (attrs && typeof attrs === "object" && !Array.isArray(attrs)) found.push({ attrs, item, encoded, index });
      } else {
        found.push({ attrs: item, item: null, encoded: false, index });
      }
    });
    const op = found.find((f) => typeof f.attrs.shader_code === "string") || found[0];
    if (!op) return { error: "no attribute object in the op" };
    op.write = (changes) => {
      if (!op.encoded) {
        const inPlace = replaceJsonValues(text, changes);
        if (inPlace !== null) return inPlace;
      }
      const attrs = { ...op.attrs, ...changes };
      for (const key of Object.keys(changes)) if (changes[key] === undefined) delete attrs[key];
      const holder = op.item ? { ...op.item, implementation_attrs: op.encoded ? JSON.stringify(attrs) : attrs } : attrs;
      const whole = Array.isArray(value) ? value.map((v, k) => (k === op.index ? holder : v)) : holder;
      return JSON.stringify(whole, null, 2);
    };
    return op;
  }

  // Each changed key's value replaced where it stands, when the key occurs exactly once;
  // null when that is not possible (the caller then writes the whole document).
  function replaceJsonValues(text, changes) {
    let result = text;
    for (const [key, newValue] of Object.entries(changes)) {
      if (newValue === undefined) return null;
      const pattern = new RegExp(`("${key}"\\s*:\\s*)"(?:[^"\\\\\\n]|\\\\.)*"`, "g");
      const matches = [...result.matchAll(pattern)];
      if (matches.length !== 1) return null;
      const m = matches[0];
      result = result.slice(0, m.index) + m[1] + JSON.stringify(newValue) + result.slice(m.index + m[0].length);
    }
    return result;
  }

  const MLIR_ATTRS = /implementation_attrs\s*=\s*"((?:[^"\\\n]|\\.)*)"/g;

  function findMlirOp(text) {
    const found = [];
    for (const m of text.matchAll(MLIR_ATTRS)) {
      let attrs;
      try {
        attrs = JSON.parse(mlirDecode(m[1]));
      } catch (error) {
        continue;
      }
      if (!attrs || typeof attrs !== "object" || Array.isArray(attrs)) continue;
      const start = m.index + m[0].length - m[1].length - 1;
      found.push({ attrs, start, end: start + m[1].length });
    }
    const op = found.find((f) => typeof f.attrs.shader_code === "string") || found[0];
    if (!op) return { error: "no custom op with readable implementation_attrs" };
    op.write = (changes) => {
      const attrs = { ...op.attrs, ...changes };
      for (const key of Object.keys(changes)) if (changes[key] === undefined) delete attrs[key];
      return text.slice(0, op.start) + mlirEncode(JSON.stringify(attrs)) + text.slice(op.end);
    };
    return op;
  }

  function needsCompile(op) {
    return !op.error && typeof op.attrs.shader_code === "string" && op.attrs.shader_code !== "";
  }

  // The shader pane shows the op's shader_code; SPIR-V (base64) is only shown.
  function showShader(op) {
    const note = $("shader-note");
    if (op.error) {
      shader.readOnly = true;
      note.textContent = `out of sync: ${op.error}`;
      return;
    }
    const code = typeof op.attrs.shader_code === "string" ? op.attrs.shader_code : "";
    const spirv = op.attrs.shader_language === "SPIR-V";
    shader.readOnly = spirv;
    note.textContent = spirv ? "SPIR-V (base64): edit it in the op" : op.attrs.shader_language || "";
    if (shader.value !== code) {
      shader.value = code;
      shaderEditor.activeLine = 0;
    }
    if (typeof op.attrs.shader_language === "string" && [...language.options].some((o) => o.value === op.attrs.shader_language)) {
      language.value = op.attrs.shader_language;
    }
    shownLanguage = language.value;
  }

  // -- the diagnostics list ----------------------------------------------------------------

  function inlineCode(text) {
    return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
  }

  // A diagnostic's own fix (its edits located in the op text), when `fix` applies it.
  function fixableAt(d) {
    return Boolean(d && d.fix && d.fix.applicability === "safe" && d.fix.edits.length);
  }

  function renderList() {
    list.innerHTML = "";
    diagnostics.forEach((d, index) => {
      const item = document.createElement("li");
      item.className = `diag sev-${d.severity}${index === active ? " active" : ""}`;
      item.dataset.index = String(index);
      item.dataset.code = d.code;
      item.dataset.pane = d.shaderRange ? "shader" : "op";
      item.tabIndex = 0;
      const where = d.shaderRange
        ? `shader ${d.shader_location.line}:${d.shader_location.column}`
        : d.location && d.location.line ? `${d.location.line}:${d.location.column}` : "";
      const code = escapeHtml(d.code);
      item.innerHTML =
        `<div class="diag-head">` +
        `<span class="sev">${escapeHtml(d.severity)}</span>` +
        `<a class="code" href="/v1/rules/${code}" target="_blank" rel="noopener" title="What ${code} checks, and why">${code}</a>` +
        `<span class="rule">${escapeHtml(d.name)}</span>` +
        `<span class="where">${where}</span>` +
        `</div>` +
        `<p class="message">${inlineCode(d.message)}</p>` +
        (d.shader_instruction
          ? `<p class="message">shader_code: <code>${escapeHtml(d.shader_instruction)}</code></p>`
          : "") +
        (d.hint
          ? `<p class="hint"><span class="hint-label">fix</span><span>${inlineCode(d.hint)}</span>` +
            (fixableAt(d) ? `<button type="button" class="apply-fix" title="${escapeHtml(d.fix.title)}">apply fix</button>` : "") +
            `</p>`
          : "");
      list.appendChild(item);
    });
    empty.hidden = diagnostics.length > 0 || summary.dataset.state !== "done";
    applyAll.hidden = !(fix && fix.changed);
    if (fix && fix.changed) applyAll.textContent = `Apply fixes (${fix.changes.length})`;
  }

  function renderMarks() {
    opEditor.marks = [];
    shaderEditor.marks = [];
    diagnostics.forEach((d, index) => {
      const rank = SEVERITY_RANK[d.severity] || 1;
      if (d.range) opEditor.marks.push({ ...d.range, rank, index });
      if (d.shaderRange) shaderEditor.marks.push({ ...d.shaderRange, rank, index });
    });
    opEditor.render();
    shaderEditor.render();
  }

  function setActive(index) {
    if (index === active) return;
    active = index;
    for (const item of list.children) item.classList.toggle("active", Number(item.dataset.index) === active);
    opEditor.render();
    shaderEditor.render();
  }

  function reveal(index) {
    const d = diagnostics[index];
    if (!d) return;
    active = index;
    for (const item of list.children) item.classList.toggle("active", Number(item.dataset.index) === active);
    if (d.shaderRange) {
      opEditor.activeLine = 0;
      shaderEditor.reveal(d.shaderRange);
      opEditor.render();
    } else if (d.range) {
      shaderEditor.activeLine = 0;
      opEditor.reveal(d.range);
      shaderEditor.render();
    }
    updateCursors();
  }

  list.addEventListener("click", (event) => {
    if (event.target.closest("a")) return; // the rule link opens the rule's page
    if (event.target.closest("button.apply-fix")) {
      applyDiagnosticFix(diagnostics[Number(event.target.closest("li.diag").dataset.index)]);
      return;
    }
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
    if (s.infos) parts.push(`${s.infos} info`);
    setSummary("done", parts.length ? parts.join(", ") : "No problems", `checked in ${Math.round(elapsed)} ms`);
    summary.dataset.result = s.errors ? "errors" : s.warnings ? "warnings" : "clean";
  }

  // -- checking and fixing -------------------------------------------------------------------

  function requestOptions() {
    const options = { workgroup_semantics: semantics.value, target_env: targetEnv.value };
    if (targetDevice.value) options.target_device = [targetDevice.value];
    return options;
  }

  function checkBody(text) {
    const body = JSON_MODE() ? { text } : { mlir: text };
    body.options = requestOptions();
    return JSON.stringify(body);
  }

  async function post(path, body, signal) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      signal,
    });
    return { response, body: await response.json() };
  }

  async function check() {
    clearTimeout(timer);
    const mine = ++sequence;
    if (inFlight) inFlight.abort();
    inFlight = new AbortController();
    const signal = inFlight.signal;
    const text = source.value;
    const started = performance.now();
    setSummary("busy", "Checking…");
    let answer;
    try {
      answer = await post("/v1/check", checkBody(text), signal);
    } catch (error) {
      if (error.name === "AbortError" || mine !== sequence) return;
      setSummary("failed", "Server unreachable", String(error.message || error));
      return;
    }
    if (mine !== sequence) return; // a newer check is on its way
    list.classList.remove("stale");
    fix = null;
    if (!answer.response.ok) {
      diagnostics = [];
      setSummary("failed", answer.body.title || `HTTP ${answer.response.status}`, answer.body.detail || "");
      summary.dataset.result = "failed";
      renderList();
      renderMarks();
      return;
    }
    const starts = lineStarts(text);
    const shaderText = shader.value;
    const shaderStarts = lineStarts(shaderText);
    const inSync = !findOp(text).error;
    diagnostics = answer.body.files[0].diagnostics.map((d) => ({
      ...d,
      range: rangeOf(text, starts, d.location),
      shaderRange: inSync && d.shader_location ? rangeOf(shaderText, shaderStarts, d.shader_location) : null,
    }));
    active = -1;
    summarize(answer.body, performance.now() - started);
    renderList();
    renderMarks();
    if (diagnostics.some((d) => d.hint)) previewFix(text, mine, signal);
  }

  // Ask /v1/fix what it would change, to offer it on the diagnostics it repairs.
  async function previewFix(text, mine, signal) {
    let answer;
    try {
      const document = JSON_MODE() ? { text } : { mlir: text };
      answer = await post("/v1/fix", JSON.stringify({ ...document, options: requestOptions() }), signal);
    } catch (error) {
      return;
    }
    if (mine !== sequence || source.value !== text || !answer.response.ok) return;
    fix = answer.body;
    applyAll.hidden = !fix.changed;
    if (fix.changed) applyAll.textContent = `Apply fixes (${fix.changes.length})`;
  }

  // Replace the op text as an edit (so Ctrl+Z brings the old text back).
  function replaceOpText(text) {
    source.focus();
    source.select();
    if (!document.execCommand("insertText", false, text)) {
      source.value = text;
      onOpEdit();
    }
  }

  function applyFix() {
    if (fix && fix.changed && typeof fix.fixed === "string") {
      const fixed = fix.fixed;
      fix = null;
      replaceOpText(fixed);
      check();
    }
  }

  // One diagnostic's fix: its edits (line/column ranges of the text that was checked,
  // columns in code points) applied to the op text, last first.
  function applyDiagnosticFix(d) {
    if (!fixableAt(d)) return;
    const text = source.value;
    const starts = lineStarts(text);
    const edits = d.fix.edits
      .map((e) => ({ start: offsetAt(text, starts, e.start.line, e.start.column),
                     end: offsetAt(text, starts, e.end.line, e.end.column), text: e.text }))
      .sort((a, b) => b.start - a.start);
    let fixed = text;
    for (const e of edits) fixed = fixed.slice(0, e.start) + e.text + fixed.slice(e.end);
    fix = null;
    replaceOpText(fixed);
    check();
  }

  function schedule() {
    clearTimeout(timer);
    const op = findOp(source.value);
    if (needsCompile(op)) {
      setSummary("pending", "Not checked", "the shader compiles on Ctrl+Enter (or the Check button)");
      return;
    }
    setSummary("busy", "Checking…");
    timer = setTimeout(check, DEBOUNCE_MS);
  }

  // -- editing -------------------------------------------------------------------------------

  function updateCursors() {
    for (const [area, status] of [[source, $("cursor")], [shader, $("shader-cursor")]]) {
      const before = area.value.slice(0, area.selectionStart);
      const line = before.split("\n").length;
      const column = [...before.slice(before.lastIndexOf("\n") + 1)].length + 1;
      status.textContent = `Ln ${line}, Col ${column}`;
    }
  }

  function save() {
    buffers[mode.value] = source.value;
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(snapshot()));
    } catch (error) {
      /* private mode: nothing to keep */
    }
  }

  function staleMarks() {
    // Marks from the last answer no longer fit the text: show the text now, marks later.
    diagnostics = [];
    fix = null;
    active = -1;
    opEditor.activeLine = 0;
    shaderEditor.activeLine = 0;
    list.classList.add("stale");
    for (const button of list.querySelectorAll("button.apply-fix")) button.remove(); // for the old text
    applyAll.hidden = true;
    renderMarks();
  }

  function onOpEdit() {
    showShader(findOp(source.value));
    staleMarks();
    save();
    schedule();
  }

  function onShaderEdit() {
    const op = findOp(source.value);
    if (op.error || shader.readOnly) return;
    const changes = { shader_code: shader.value };
    if (typeof op.attrs.shader_language !== "string") changes.shader_language = language.value || "GLSL";
    source.value = op.write(changes);
    staleMarks();
    save();
    schedule();
  }

  source.addEventListener("input", onOpEdit);
  shader.addEventListener("input", onShaderEdit);
  for (const area of [source, shader]) {
    for (const type of ["keyup", "click", "select"]) area.addEventListener(type, updateCursors);
  }

  // -- switches that never lose text --------------------------------------------------------

  function exampleFor() {
    return JSON_MODE() ? EXAMPLES[language.value] || EXAMPLES.GLSL || "" : EXAMPLES.MLIR || "";
  }

  function isExampleOrEmpty(text) {
    return text.trim() === "" || Object.values(EXAMPLES).some((e) => e.trim() === text.trim());
  }

  // The op's shader_language follows the selector (undoable); an untouched example is
  // swapped for the example of that language.
  language.addEventListener("change", () => {
    const text = source.value;
    if (JSON_MODE() && isExampleOrEmpty(text) && EXAMPLES[language.value] !== undefined) {
      shownLanguage = language.value;
      replaceOpText(EXAMPLES[language.value]);
      check();
      return;
    }
    const op = findOp(text);
    if (op.error) {
      shownLanguage = language.value;
      return;
    }
    if (language.value === "") {
      if (typeof op.attrs.shader_code === "string" && op.attrs.shader_code !== "" &&
          !window.confirm("Remove the shader (shader_code and shader_language) from the op? Ctrl+Z in the op pane brings it back.")) {
        language.value = shownLanguage;
        return;
      }
      shownLanguage = "";
      replaceOpText(op.write({ shader_code: undefined, shader_language: undefined }));
      return;
    }
    shownLanguage = language.value;
    replaceOpText(op.write({ shader_language: language.value }));
  });

  mode.addEventListener("change", () => {
    const previous = mode.value === "json" ? "mlir" : "json";
    buffers[previous] = source.value; // kept: switching back restores it
    $("op-title").textContent = JSON_MODE() ? "Op (JSON)" : "Op (TOSA MLIR)";
    source.value = buffers[mode.value] || exampleFor();
    source.scrollTop = 0;
    onOpEdit();
    check();
  });

  $("load-example").addEventListener("click", () => {
    const text = source.value;
    if (!isExampleOrEmpty(text) &&
        !window.confirm("Replace your op with the example? Ctrl+Z in the op pane brings it back.")) {
      return;
    }
    replaceOpText(exampleFor());
    check();
  });

  applyAll.addEventListener("click", applyFix);
  $("check").addEventListener("click", check);
  semantics.addEventListener("change", () => {
    save();
    check();
  });
  for (const select of [targetEnv, targetDevice]) {
    select.addEventListener("change", () => {
      save();
      check();
    });
  }
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
      event.preventDefault();
      check();
    }
  });

  // -- sharing: the state in the URL, compressed where the browser can ---------------------

  function snapshot() {
    return { v: 1, mode: mode.value, text: source.value, semantics: semantics.value, target: targetEnv.value,
             device: targetDevice.value };
  }

  function toBase64Url(bytes) {
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromBase64Url(text) {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  }

  async function through(stream, bytes) {
    const piped = new Blob([bytes]).stream().pipeThrough(stream);
    return new Uint8Array(await new Response(piped).arrayBuffer());
  }

  async function encodeState(state) {
    const bytes = new TextEncoder().encode(JSON.stringify(state));
    if (window.CompressionStream) return "z=" + toBase64Url(await through(new CompressionStream("deflate-raw"), bytes));
    return "j=" + toBase64Url(bytes);
  }

  async function decodeState(hash) {
    const kind = hash.slice(0, 2);
    let bytes = fromBase64Url(hash.slice(2));
    if (kind === "z=") bytes = await through(new DecompressionStream("deflate-raw"), bytes);
    else if (kind !== "j=") return null;
    return JSON.parse(new TextDecoder().decode(bytes));
  }

  $("share").addEventListener("click", async () => {
    const url = `${location.origin}${location.pathname}#${await encodeState(snapshot())}`;
    history.replaceState(null, "", url);
    $("share-bar").hidden = false;
    const field = $("share-url");
    field.value = url;
    field.select();
    try {
      await navigator.clipboard.writeText(url);
    } catch (error) {
      /* no clipboard here: the link is selected in the field */
    }
  });

  function restore(state) {
    if (!state || typeof state.text !== "string") return false;
    if (state.mode === "mlir" || state.mode === "json") mode.value = state.mode;
    if (state.semantics) semantics.value = state.semantics;
    if (state.target) targetEnv.value = state.target;
    if (typeof state.device === "string") targetDevice.value = state.device;
    $("op-title").textContent = JSON_MODE() ? "Op (JSON)" : "Op (TOSA MLIR)";
    source.value = state.text;
    return true;
  }

  // -- start -----------------------------------------------------------------------------------

  fetch("/healthz")
    .then((r) => r.json())
    .then((h) => {
      $("version").textContent = `tosa-vkshader ${h.version}`;
    })
    .catch(() => {});

  // The shipped target devices, as the API describes its target_device option.
  async function loadDevices() {
    const spec = await (await fetch("/openapi.json")).json();
    const option = spec.components.schemas.CheckOptions.properties.target_device;
    for (const name of option.oneOf[0].enum) targetDevice.add(new Option(name, name));
  }

  async function start() {
    await loadDevices().catch(() => {});
    let restored = false;
    const hash = location.hash.slice(1);
    if (hash) {
      try {
        restored = restore(await decodeState(hash));
      } catch (error) {
        setSummary("failed", "Unreadable link", "the link's state could not be decoded");
      }
    }
    if (!restored) {
      try {
        restored = restore(JSON.parse(localStorage.getItem(STORAGE_KEY) || "null"));
      } catch (error) {
        restored = false;
      }
    }
    if (!restored) source.value = exampleFor();
    buffers[mode.value] = source.value;
    showShader(findOp(source.value));
    shownLanguage = language.value;
    renderMarks();
    save();
    check();
  }

  start();
})();
