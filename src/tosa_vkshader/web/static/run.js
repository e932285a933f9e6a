// "Run on lavapipe": runs the op with random inputs on the server's Vulkan device and
// shows what the device showed and a preview of each result. Only offered when the
// server was started with `tosa-vkshader serve --allow-run` (/healthz says so).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function values(tensor) {
    const shown = tensor.values.join(", ");
    return tensor.more ? `${shown}, … (${tensor.more} more)` : shown;
  }

  function tensorRow(list, tensor) {
    const row = element("li", "run-tensor");
    row.append(element("code", "run-name", tensor.name),
               element("span", "run-type", ` ${tensor.dtype} [${tensor.shape.join(", ")}] `),
               element("code", "run-values", values(tensor)));
    list.append(row);
  }

  function render(panel, answer) {
    panel.replaceChildren();
    const head = element("div", "run-head");
    head.dataset.state = answer.ok ? "clean" : "errors";
    head.append(element("strong", "", answer.ok ? "Ran clean" : "The run found problems"),
                element("span", "", ` on ${answer.device || "the server's device"}, ` +
                                    `${answer.elapsed_ms} ms, inputs drawn with seed ${answer.seed}`));
    panel.append(head);
    const findings = element("ol", "run-findings");
    for (const d of answer.diagnostics) {
      const item = element("li", `run-finding ${d.severity}`);
      item.append(element("code", "", `${d.severity}[${d.code}]`), element("span", "", ` ${d.message}`));
      if (d.hint) item.append(element("div", "run-hint", `help: ${d.hint}`));
      findings.append(item);
    }
    if (answer.diagnostics.length) panel.append(findings);
    for (const [title, tensors] of [["Inputs", answer.inputs], ["Results", answer.results]]) {
      if (!tensors.length) continue;
      panel.append(element("h3", "run-title", title));
      const list = element("ul", "run-tensors");
      tensors.forEach((t) => tensorRow(list, t));
      panel.append(list);
    }
  }

  async function run(button, panel) {
    const text = $("source").value;
    const body = $("mode").value === "json" ? { text } : { mlir: text };
    body.options = { workgroup_semantics: $("semantics").value, target_env: $("target-env").value };
    button.disabled = true;
    panel.hidden = false;
    panel.replaceChildren(element("p", "run-wait", "Running on the server's device…"));
    try {
      const response = await fetch("/v1/run", {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
      });
      const answer = await response.json();
      if (response.ok) render(panel, answer);
      else panel.replaceChildren(element("p", "run-problem", answer.detail || answer.title));
    } catch (error) {
      panel.replaceChildren(element("p", "run-problem", `The run failed: ${error}`));
    } finally {
      button.disabled = false;
    }
  }

  fetch("/healthz")
    .then((r) => r.json())
    .then((health) => {
      if (!health.run) return;
      const button = element("button", "button", "Run on lavapipe");
      button.type = "button";
      button.id = "run";
      button.title = "Run the op with random inputs on the server's Vulkan device";
      const panel = element("section", "run-panel");
      panel.id = "run-panel";
      panel.hidden = true;
      panel.setAttribute("aria-label", "Run");
      document.querySelector(".toolbar .actions").append(button);
      document.querySelector(".results-pane").append(panel);
      button.addEventListener("click", () => run(button, panel));
    })
    .catch(() => {});
})();
