// The one way to turn anything thrown into text for a person, as components reach it (they import only src/app).
export { errorText } from '../ai/messages';
