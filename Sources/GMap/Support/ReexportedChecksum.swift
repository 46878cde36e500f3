// `CRC32` was declared in GMap until it became the GMapChecksum target, which the reader and the
// codecs (GMapCodecs) share without one depending on the other. It is public API of GMap (a map's
// header and sections carry CRC-32s, and `MapVerifier` checks them): re-exported, so code that
// imports GMap alone keeps compiling and the type keeps its name.
@_exported import GMapChecksum
