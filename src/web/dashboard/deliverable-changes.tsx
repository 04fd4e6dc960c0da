import type { DeliverableChanges } from "../../domain/research/changes";

// ---------------------------------------------------------------------------
// A series run's deliverable: what changed since the previous run's, shown above the report. The texts came from
// assistants (headings, claims) and pages' addresses: shown as text, never as HTML, and addresses are not links.

function List(props: { id: string; title: string; items: readonly string[] }) {
  if (props.items.length === 0) return null;
  return (
    <>
      <h3>{props.title}</h3>
      <ul id={props.id}>
        {props.items.map((item) => (
          <li>{item}</li>
        ))}
      </ul>
    </>
  );
}

/** On the dashboard only: a share page shows no "what changed" (the previous deliverable was not shared). */
export function DeliverableChangesCard(props: { previousOutputId: string; changes: DeliverableChanges }) {
  const { changes } = props;
  return (
    <section class="card" id="what-changed">
      <h2>What changed since the previous run</h2>
      <p id="what-changed-summary">{changes.summary}</p>
      <p class="muted">
        Compared with <a href={`/dashboard/outputs/${props.previousOutputId}`}>the previous run's deliverable</a>
        {changes.clipped ? "; long lists show their first items" : ""}.
      </p>
      <List id="changed-sections-added" title="Sections added" items={changes.sections.added} />
      <List id="changed-sections-removed" title="Sections removed" items={changes.sections.removed} />
      <List id="changed-claims-new" title="New claims" items={changes.claims.new} />
      <List id="changed-claims-dropped" title="Dropped claims" items={changes.claims.dropped} />
      <List id="changed-claims-changed" title="Changed claims" items={changes.claims.changed.map((claim) => `${claim.before} → ${claim.after}`)} />
      <List id="changed-numbers" title="Numbers that changed" items={changes.numbers.map((n) => `${n.before} → ${n.after}: ${n.context}`)} />
      <List id="changed-sources-new" title="New sources" items={changes.sources.new} />
      <List id="changed-sources-gone" title="Sources gone" items={changes.sources.gone} />
    </section>
  );
}
