// The record signatures of the zip format (APPNOTE 4.3), shared by Conch's zip writer and its directory reader.
export const LOCAL_HEADER = 0x04034b50;
export const CENTRAL_HEADER = 0x02014b50;
export const END_OF_DIRECTORY = 0x06054b50;
export const ZIP64_END = 0x06064b50;
export const ZIP64_LOCATOR = 0x07064b50;
