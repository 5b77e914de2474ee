export { describeNoteLesson, type NoteLesson } from "./attachment.ts";
export { noteSnippet, renderNoteMarkdown } from "./markdown.ts";
export {
  createNote,
  deleteNote,
  exportNotes,
  getNote,
  isDeletedNote,
  listLessonNotes,
  listNotes,
  pageOfNotes,
  purgeDeletedNotes,
  matchesSearch,
  noteLimits,
  restoreNote,
  updateNote,
  type NewNote,
  type NoteList,
  type Note,
  type NoteSort,
} from "./notes.ts";
