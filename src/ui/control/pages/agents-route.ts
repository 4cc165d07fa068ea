// The Agents page's route tester: channel, account, peer kind and id, guild, team and roles in;
// the agent, the session key and the matched tier out (with each tier's reasoning folded), exactly
// what `pincer agents route` answers, through `agents.route`.
import { html, nothing, type TemplateResult } from "lit";
import { PEER_KINDS, type RouteAnswer } from "./agents-model.js";

/** What the tester needs: the last answer or error, and the submit handler. */
export interface RouteTesterParams {
  answer: RouteAnswer | undefined;
  error: string;
  busy: boolean;
  onSubmit: (data: FormData) => void;
}

function field(name: string, label: string, placeholder = ""): TemplateResult {
  return html`<label>${label} <input name=${name} placeholder=${placeholder} autocomplete="off" /></label>`;
}

function answerView(answer: RouteAnswer): TemplateResult {
  const { route } = answer;
  const which =
    answer.matchedBindingIndex === undefined ? "" : ` (bindings[${answer.matchedBindingIndex}])`;
  return html`<dl class="facts route-answer">
      <dt>Agent</dt><dd class="route-agent">${route.agentId}</dd>
      <dt>Session key</dt><dd class="route-session"><code>${route.sessionKey}</code></dd>
      <dt>Matched by</dt><dd class="route-tier">${route.matchedBy}${which}</dd>
      <dt>Account</dt><dd>${route.accountId}</dd>
    </dl>
    <details>
      <summary>Tiers, most specific first</summary>
      <ol class="tiers">
        ${answer.tiers.map(
          (tier) => html`<li class=${`tier-${tier.outcome}`}>
            <span class=${tier.outcome === "matched" ? "badge ok" : tier.outcome === "no-match" ? "badge err" : "badge"}>${tier.outcome}</span>
            <strong>${tier.tier}</strong> ${tier.reason}
            ${
              tier.candidates.some((c) => c.rejected)
                ? html`<ul>
                  ${tier.candidates
                    .filter((c) => c.rejected)
                    .map(
                      (c) =>
                        html`<li class="muted">bindings[${c.bindingIndex}] → ${c.agentId}: ${c.rejected}</li>`,
                    )}
                </ul>`
                : nothing
            }
          </li>`,
        )}
      </ol>
    </details>
    ${answer.notes.map((note) => html`<p class="warn-text">Note: ${note}</p>`)}`;
}

/** The route tester card. */
export function routeTester(params: RouteTesterParams): TemplateResult {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    params.onSubmit(new FormData(event.currentTarget as HTMLFormElement));
  };
  return html`<section class="card route-tester" aria-labelledby="route-tester-title">
    <h2 id="route-tester-title">Route tester</h2>
    <p class="muted">Which agent and session an inbound message would reach, and why.</p>
    <form class="route-form" @submit=${submit}>
      <label>Channel <input name="channel" required placeholder="telegram" autocomplete="off" /></label>
      ${field("accountId", "Account", "default")}
      <label>
        Peer kind
        <select name="peerKind">
          <option value="">No peer</option>
          ${PEER_KINDS.map((kind) => html`<option value=${kind}>${kind}</option>`)}
        </select>
      </label>
      ${field("peerId", "Peer id", "123456789")}
      ${field("guildId", "Guild")}
      ${field("teamId", "Team")}
      ${field("roles", "Roles", "comma-separated")}
      <button type="submit" ?disabled=${params.busy}>Test route</button>
    </form>
    <div role="status" aria-live="polite" class="route-result">
      ${params.error ? html`<p class="error">${params.error}</p>` : nothing}
      ${params.answer ? answerView(params.answer) : nothing}
    </div>
  </section>`;
}
