/**
 * Marks a schema node that `tools/list` shows as its description only (an open
 * object): for a large record whose fields the description names, such as the
 * interview metadata. The server still validates every field of it.
 */
export const LIST_AS_DESCRIPTION = "x-cairn-list-as-description";
