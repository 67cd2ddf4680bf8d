export interface Note {
  id: string;
  title: string;
  body: string;
  tags: string[];
}

const notes = new Map<string, Note>();

export function addNote(note: Note): void {
  notes.set(note.id, note);
}

export function search(term: string): Note[] {
  const t = term.toLowerCase();
  return [...notes.values()].filter((n) => n.title.toLowerCase().includes(t) || n.tags.includes(t));
}
