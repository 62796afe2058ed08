// Text put into HTML (every e-mail, the sample sites, the no-script answers): the five characters
// that could open a tag or close an attribute, as entities. One function, so no surface escapes less.
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
