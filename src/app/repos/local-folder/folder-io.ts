// Everything a local folder does that needs the core (the File System Access work, storage, the tree diff, the
// merge), in one module LocalFolder loads on first use, so none of it is in the page's first JavaScript.
export { ensurePermission, outsideEditsSummary, permissionMessage, planWriteBack, readFolder, refreshFromDisk } from '../../../remote';
export { folderChanges } from './folder-changes';
export { loadFolderLink, saveFolderLink } from './folder-link';
export { WriteBackReview } from './write-back-review.svelte';
