import type { Child } from "hono/jsx";

/**
 * The dashboard's lists of things with actions on each row (webhook subscriptions and their deliveries, notification
 * channels, a deliverable's share links): one table, stacked into labelled blocks on a narrow screen (`class="stack"`,
 * each cell's `data-label`), or a line saying there is nothing yet; and the one-button forms its rows post.
 */
export function RowsTable<T>(props: { id: string; headings: readonly string[]; rows: readonly T[]; row: (item: T) => Child; empty: Child }) {
  if (props.rows.length === 0) return <>{props.empty}</>;
  return (
    <div class="table-wrap">
      <table class="stack" id={props.id}>
        <thead>
          <tr>
            {props.headings.map((heading) => (heading ? <th>{heading}</th> : <th />))}
          </tr>
        </thead>
        <tbody>{props.rows.map(props.row)}</tbody>
      </table>
    </div>
  );
}

/** A row's action: a form of one button that posts to `action` with the page's CSRF token (revoke, delete, rotate…). */
export function PostButton(props: { action: string; csrf: string; label: string; kind?: "primary" | "danger" }) {
  return (
    <form method="post" action={props.action} class="inline">
      <input type="hidden" name="csrf" value={props.csrf} />
      <button type="submit" class={props.kind}>
        {props.label}
      </button>
    </form>
  );
}
