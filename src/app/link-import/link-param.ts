// The page's start asks only this of the link import: was it opened with a `?session=` (or `#session=`) link?
export { sessionLinkParam } from '../../remote/session-link/link-param';
