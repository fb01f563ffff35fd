// CodeMirror 6, loaded only when a person opens a file.
import { basicSetup, EditorView } from 'codemirror';
import { Compartment, EditorState } from '@codemirror/state';
import { keymap } from '@codemirror/view';
import { LanguageDescription } from '@codemirror/language';
import { languages } from '@codemirror/language-data';
import { oneDark } from '@codemirror/theme-one-dark';

export type FileEditor = { view: EditorView; setDark(dark: boolean): void; text(): string; setText(text: string): void; destroy(): void };

/** An editor for `text` inside `parent`; the language follows the file name, loaded on demand. */
export function createFileEditor(options: {
  parent: HTMLElement;
  text: string;
  fileName: string;
  dark: boolean;
  readOnly: boolean;
  onChange(): void;
  onSave(): void;
}): FileEditor {
  const theme = new Compartment();
  const language = new Compartment();
  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        keymap.of([{ key: 'Mod-s', preventDefault: true, run: () => (options.onSave(), true) }]),
        basicSetup,
        language.of([]),
        theme.of(options.dark ? oneDark : []),
        EditorState.readOnly.of(options.readOnly),
        EditorView.contentAttributes.of({ 'aria-label': `Contents of ${options.fileName}` }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange();
        }),
      ],
    }),
  });
  const description = LanguageDescription.matchFilename(languages, options.fileName);
  if (description) {
    void description.load().then((support) => view.dispatch({ effects: language.reconfigure(support) }));
  }
  return {
    view,
    setDark: (dark) => view.dispatch({ effects: theme.reconfigure(dark ? oneDark : []) }),
    text: () => view.state.doc.toString(),
    setText: (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    destroy: () => view.destroy(),
  };
}
