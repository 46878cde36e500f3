/// Reads an OpenStreetMap PBF file for a location map, streamed, so that a region builds in memory
/// proportional to what the map needs.
///
/// The file is read blob by blob (``OSMPBFReader/stream(path:into:)``), keeping node positions in an
/// ``OSMNodeStore``, way references in an ``OSMWayReferenceStore`` and the tagged elements that
/// ``keepsNode(_:)``, ``keepsWay(_:includePaths:)`` and ``keepsRelation(_:)`` keep. The result is an
/// ``OSMData``, and the map built from it is the same, byte for byte, as from
/// ``OSMPBFReader/read(path:)`` (tested). Past ``Limits/maximumNodes`` node positions, or twice as
/// many way references, the read stops with a ``BuildError`` that names the limit. What is kept,
/// the stages and what is freed between them: Docs/Internals.md#reading-osm-for-a-location-map.
public enum LocationInput {
    /// How much a read may take.
    public struct Limits: Sendable {
        /// The most nodes a file may have (``OSMNodeStore`` takes 16 bytes each while reading; the default, 500
        /// million, is 8 GB of positions, a country of Germany's size). Way references may be twice as many.
        public var maximumNodes: Int

        /// The default limit of nodes.
        public static let defaultMaximumNodes = 500_000_000

        /// Limits from their parts.
        public init(maximumNodes: Int = Limits.defaultMaximumNodes) {
            self.maximumNodes = maximumNodes
        }
    }

    /// What was read: every element counted, kept or not.
    public struct Counts: Sendable, Equatable {
        /// Nodes, ways and relations in the file (repeats included), and blobs (the header blob included).
        public var nodes = 0, ways = 0, relations = 0, blobs = 0
        /// Ways that reference nodes absent from the file, and those references (over all ways).
        public var waysWithAbsentNodes = 0, absentNodeReferences = 0
        /// Nodes, ways and relations kept with their tags.
        public var keptNodes = 0, keptWays = 0, keptRelations = 0

        /// Zero counts.
        public init() {}
    }

    // MARK: What can matter (the one place that decides)

    /// Whether a node with these tags can be a place or an address (``OSMPlaces``): named with a
    /// place key, or with a house number.
    public static func keepsNode(_ tags: [OSMTag]) -> Bool {
        guard !tags.isEmpty else { return false }
        return (tag("name", tags) != nil && OSMPlaces.category(of: tags, keys: OSMPlaces.placeKeys) != nil) || tag("addr:housenumber", tags) != nil
    }

    /// Whether a way with these tags can be a street (``StreetNetwork``: a kept `highway` class with
    /// a `name` or `ref`), an area or a place (named, with an area or place key) or an address.
    /// The street network and the places then decide on these as they would on every way.
    public static func keepsWay(_ tags: [OSMTag], includePaths: Bool) -> Bool {
        guard !tags.isEmpty else { return false }
        let name = tag("name", tags)
        if let highway = tag("highway", tags), StreetClass.isKept(highway, includePaths: includePaths), (name ?? tag("ref", tags)) != nil { return true }
        if name != nil, OSMPlaces.areaCategory(of: tags) != nil || OSMPlaces.category(of: tags, keys: OSMPlaces.placeKeys) != nil {
            return true
        }
        return tag("addr:housenumber", tags) != nil
    }

    /// Whether a relation can be an area: `type=multipolygon` (``OSMPlaces`` counts the named ones
    /// it cannot close, so all are kept).
    public static func keepsRelation(_ tags: [OSMTag]) -> Bool {
        tag("type", tags) == "multipolygon"
    }

    private static func tag(_ key: String, _ tags: [OSMTag]) -> String? { tags.first { $0.key == key }?.value }


    // MARK: Reading

    /// Reads the PBF file at `path` ("-" for standard input) for a location map with or without
    /// paths. Errors: ``FileReadError``, ``OSMPBFError``, ``BuildError`` (a limit).
    public static func read(path: String, includePaths: Bool = false, limits: Limits = Limits()) throws -> (data: OSMData, counts: Counts) {
        var collector = Collector(includePaths: includePaths, limits: limits)
        let header = try OSMPBFReader.stream(path: path, into: &collector)
        var read = collector.finish(blobs: header.blobCount)
        read.data.boundingBox = header.boundingBox
        return read
    }

    /// Reads PBF bytes from `source`; `file` names them in errors.
    public static func read(_ source: any ByteSource, file: String, includePaths: Bool = false,
                            limits: Limits = Limits()) throws -> (data: OSMData, counts: Counts) {
        var collector = Collector(includePaths: includePaths, limits: limits)
        let header = try OSMPBFReader.stream(source, file: file, into: &collector)
        var read = collector.finish(blobs: header.blobCount)
        read.data.boundingBox = header.boundingBox
        return read
    }

    /// The sink that keeps what can matter.
    struct Collector: OSMElementSink {
        let includePaths: Bool
        let limits: Limits
        var positions = OSMNodeStore()
        var references = OSMWayReferenceStore()
        var nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = []
        var counts = Counts()
        var strings = Set<String>()

        init(includePaths: Bool, limits: Limits) {
            self.includePaths = includePaths
            self.limits = limits
        }

        mutating func willAddNodes(_ count: Int) throws {
            guard count <= limits.maximumNodes - counts.nodes else {
                throw BuildError("the extract has more than \(limits.maximumNodes) nodes, the limit of --max-nodes (node positions take \(OSMNodeStore.bytesPerNode) bytes each, \(Self.gigabytes(limits.maximumNodes.multipliedReportingOverflow(by: OSMNodeStore.bytesPerNode).partialValue)) at this limit): raise it with --max-nodes N if the machine has the memory, or build from a smaller extract")
            }
        }

        mutating func addNode(_ node: OSMNode) throws {
            counts.nodes += 1
            positions.append(id: node.id, latitude: node.latitudeNanodegrees, longitude: node.longitudeNanodegrees)
            if LocationInput.keepsNode(node.tags) {
                counts.keptNodes += 1
                nodes.append(OSMNode(id: node.id, latitudeNanodegrees: node.latitudeNanodegrees, longitudeNanodegrees: node.longitudeNanodegrees,
                                     tags: intern(node.tags)))
            }
        }

        mutating func addWay(_ way: OSMWay) throws {
            counts.ways += 1
            let referenceLimit = limits.maximumNodes > Int.max / 2 ? Int.max : 2 * limits.maximumNodes
            guard way.nodeIDs.count <= referenceLimit - references.referenceCount else {
                throw BuildError("the extract's ways have more than \(referenceLimit) node references, twice the limit of --max-nodes (\(limits.maximumNodes)): raise it with --max-nodes N if the machine has the memory, or build from a smaller extract")
            }
            references.append(id: way.id, references: way.nodeIDs)
            if LocationInput.keepsWay(way.tags, includePaths: includePaths) {
                counts.keptWays += 1
                ways.append(OSMWay(id: way.id, nodeIDs: way.nodeIDs, tags: intern(way.tags)))
            }
        }

        mutating func addRelation(_ relation: OSMRelation) throws {
            counts.relations += 1
            if LocationInput.keepsRelation(relation.tags) {
                counts.keptRelations += 1
                let members = relation.members.map { OSMMember(kind: $0.kind, id: $0.id, role: intern($0.role)) }
                relations.append(OSMRelation(id: relation.id, members: members, tags: intern(relation.tags)))
            }
        }

        /// One copy of each string kept.
        mutating func intern(_ string: String) -> String { strings.insert(string).memberAfterInsert }
        mutating func intern(_ tags: [OSMTag]) -> [OSMTag] { tags.map { OSMTag(key: intern($0.key), value: intern($0.value)) } }

        /// The data, once every element is in: positions sorted, absent references counted over all
        /// ways, relations' member ways added, the reference store freed.
        /// The collector is left empty, so that nothing but the data holds what it kept.
        mutating func finish(blobs: Int) -> (data: OSMData, counts: Counts) {
            positions.finish()
            counts.blobs = blobs
            // Member ways the relations need that are not kept already (the first of an id wins).
            let kept = Set(ways.map(\.id))
            var wanted = Set(relations.flatMap { $0.members.filter { $0.kind == .way && !kept.contains($0.id) }.map(\.id) })
            var counts = self.counts, ways = self.ways
            self.ways = []
            Self.scan(references, positions: positions, wanted: &wanted, counts: &counts, ways: &ways)
            references = OSMWayReferenceStore()
            strings = []
            MemoryRelease.trim()
            let data = OSMData(nodes: nodes, ways: ways, relations: relations, positions: positions)
            (self.positions, nodes, relations) = (OSMNodeStore(), [], [])
            return (data, counts)
        }

        /// Counts the references to absent nodes over all ways, and appends the `wanted` ways (the
        /// first of each id) to `ways`.
        static func scan(_ references: OSMWayReferenceStore, positions: OSMNodeStore, wanted: inout Set<Int64>, counts: inout Counts,
                         ways: inout [OSMWay]) {
            references.forEach { id, nodeIDs in
                var absent = 0
                for node in nodeIDs where positions.index(of: node) == nil { absent += 1 }
                if absent > 0 {
                    counts.waysWithAbsentNodes += 1
                    counts.absentNodeReferences += absent
                }
                if !wanted.isEmpty, wanted.remove(id) != nil {
                    // A copy of its own size: `nodeIDs` is a reused buffer, as large as the longest way yet.
                    var copy: [Int64] = []
                    copy.reserveCapacity(nodeIDs.count)
                    copy.append(contentsOf: nodeIDs)
                    ways.append(OSMWay(id: id, nodeIDs: copy))
                }
            }
        }

        /// `bytes` as "8.0 GB", or "16 MB" under a gigabyte.
        static func gigabytes(_ bytes: Int) -> String {
            guard bytes >= 1_000_000_000 else { return "\(bytes / 1_000_000) MB" }
            let tenths = bytes / 100_000_000
            return "\(tenths / 10).\(tenths % 10) GB"
        }
    }
}
