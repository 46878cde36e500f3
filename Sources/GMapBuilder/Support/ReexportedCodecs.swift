// The byte codecs (byte sources, DEFLATE, gzip, ZIP, PNG) were part of GMapBuilder until they
// became the GMapCodecs target, and GMapBuilder's own API takes them (`GeoJSONReader(source:)`
// takes a `ByteSource`). Re-exported, so code that imports GMapBuilder alone keeps compiling and
// every type keeps its name.
@_exported import GMapCodecs
