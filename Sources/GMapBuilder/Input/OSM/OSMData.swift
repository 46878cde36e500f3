/// A key and value of an OpenStreetMap element (`highway=residential`, `name=Keskuskatu`).
public struct OSMTag: Sendable, Hashable {
    /// The key, e.g. `name`.
    public var key: String
    /// The value, e.g. `Keskuskatu`.
    public var value: String

    /// A tag from its key and value.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// What an element or a relation member is.
public enum OSMElementKind: Int, Sendable, Hashable {
    /// A node: a point.
    case node = 0
    /// A way: a list of nodes.
    case way = 1
    /// A relation: a list of members.
    case relation = 2

    /// The kind as OSM writes it in ids: `node`, `way` or `relation`.
    public var name: String {
        switch self {
        case .node: return "node"
        case .way: return "way"
        case .relation: return "relation"
        }
    }
}

/// An OpenStreetMap node: a point with an id and tags.
///
/// Coordinates are kept exactly as the file gives them, in nanodegrees (PBF stores
/// `offset + granularity × value` nanodegrees); ``latitude`` and ``longitude`` give degrees.
public struct OSMNode: Sendable, Hashable {
    /// The node's OSM id.
    public var id: Int64
    /// Latitude in nanodegrees (10^-9 degree).
    public var latitudeNanodegrees: Int64
    /// Longitude in nanodegrees.
    public var longitudeNanodegrees: Int64
    /// The node's tags (empty for most nodes, which only shape ways).
    public var tags: [OSMTag]

    /// A node from its parts.
    public init(id: Int64, latitudeNanodegrees: Int64, longitudeNanodegrees: Int64, tags: [OSMTag] = []) {
        self.id = id
        self.latitudeNanodegrees = latitudeNanodegrees
        self.longitudeNanodegrees = longitudeNanodegrees
        self.tags = tags
    }

    /// Latitude in degrees.
    public var latitude: Double { Double(latitudeNanodegrees) / 1e9 }
    /// Longitude in degrees.
    public var longitude: Double { Double(longitudeNanodegrees) / 1e9 }
    /// The value of tag `key`, or nil.
    public func tag(_ key: String) -> String? { tags.first { $0.key == key }?.value }
}

/// An OpenStreetMap way: an ordered list of node ids with tags. A closed way repeats its first node last.
public struct OSMWay: Sendable, Hashable {
    /// The way's OSM id.
    public var id: Int64
    /// The ids of its nodes, in order. An extract may cut a way: some of them may be absent from the file.
    public var nodeIDs: [Int64]
    /// The way's tags.
    public var tags: [OSMTag]

    /// A way from its parts.
    public init(id: Int64, nodeIDs: [Int64], tags: [OSMTag] = []) {
        self.id = id
        self.nodeIDs = nodeIDs
        self.tags = tags
    }

    /// The value of tag `key`, or nil.
    public func tag(_ key: String) -> String? { tags.first { $0.key == key }?.value }
    /// Whether the way ends where it starts (at least four node references).
    public var isClosed: Bool { nodeIDs.count >= 4 && nodeIDs.first == nodeIDs.last }
}

/// One member of a relation: what it is, its id and its role (`outer`, `inner`, `street`, …).
public struct OSMMember: Sendable, Hashable {
    /// Whether the member is a node, a way or a relation.
    public var kind: OSMElementKind
    /// The member's OSM id.
    public var id: Int64
    /// The member's role, possibly empty.
    public var role: String

    /// A member from its parts.
    public init(kind: OSMElementKind, id: Int64, role: String) {
        self.kind = kind
        self.id = id
        self.role = role
    }
}

/// An OpenStreetMap relation: members with roles, and tags (`type=multipolygon`, …).
public struct OSMRelation: Sendable, Hashable {
    /// The relation's OSM id.
    public var id: Int64
    /// Its members, in order.
    public var members: [OSMMember]
    /// The relation's tags.
    public var tags: [OSMTag]

    /// A relation from its parts.
    public init(id: Int64, members: [OSMMember], tags: [OSMTag] = []) {
        self.id = id
        self.members = members
        self.tags = tags
    }

    /// The value of tag `key`, or nil.
    public func tag(_ key: String) -> String? { tags.first { $0.key == key }?.value }
}

/// Where a PBF decoder puts the elements it decodes, in file order: ``OSMData`` keeps them all;
/// the location map's streaming reader (``LocationInput``) keeps node positions compactly and only
/// the elements that can matter.
public protocol OSMElementSink {
    /// Called before `count` nodes are added (a dense group at a time), so that a sink can check a
    /// limit before it allocates.
    mutating func willAddNodes(_ count: Int) throws
    /// A node (its tags empty for most nodes).
    mutating func addNode(_ node: OSMNode) throws
    /// A way.
    mutating func addWay(_ way: OSMWay) throws
    /// A relation.
    mutating func addRelation(_ relation: OSMRelation) throws
}

/// Everything read from an OpenStreetMap PBF file: its nodes, ways and relations in file order,
/// and what its header says.
public struct OSMData: Sendable {
    /// Every node, in file order.
    public var nodes: [OSMNode] = []
    /// Every way, in file order.
    public var ways: [OSMWay] = []
    /// Every relation, in file order.
    public var relations: [OSMRelation] = []
    /// The header's bounding box in degrees (west, south, east, north), when it has one.
    public var boundingBox: (west: Double, south: Double, east: Double, north: Double)?
    /// The header's `writingprogram`, when present.
    public var writingProgram: String?
    /// The number of blobs read (the header blob included).
    public var blobCount = 0

    /// Position of each node id in ``nodes``.
    private var nodePositions: [Int64: Int] = [:]
    /// The positions of every node, when the data was read for a location map (``LocationInput``):
    /// then ``nodes`` holds only the tagged nodes that can matter, and ``node(id:)`` and
    /// ``absentReferences(of:)`` answer from this store (the nodes it gives have no tags).
    public private(set) var positions: OSMNodeStore?

    /// Empty data.
    public init() {}

    /// Data made of these elements (as a decoder or a test assembles them).
    public init(nodes: [OSMNode], ways: [OSMWay], relations: [OSMRelation]) {
        self.nodes = nodes
        self.ways = ways
        self.relations = relations
        indexNodes()
    }

    /// Data of a streamed read: the elements kept, and every node's position (``positions``).
    /// (No index of ``nodes`` is made: lookups go to the positions.)
    public init(nodes: [OSMNode], ways: [OSMWay], relations: [OSMRelation], positions: OSMNodeStore) {
        self.nodes = nodes
        self.ways = ways
        self.relations = relations
        self.positions = positions
    }

    /// Rebuilds the index of node ids (the first node of an id wins when a file repeats one).
    mutating func indexNodes() {
        guard positions == nil else { return }
        nodePositions = Dictionary(nodes.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// The node with `id`, or nil when the file does not hold it (an extract cuts ways at its edge).
    public func node(id: Int64) -> OSMNode? {
        if let positions { return positions.node(id: id) }
        return nodePositions[id].map { nodes[$0] }
    }

    /// The way's nodes, cut into the pieces that the file holds: a reference to an absent node ends
    /// a piece, and pieces of fewer than two nodes are dropped. A way wholly in the file is one piece.
    public func pieces(of way: OSMWay) -> [[OSMNode]] {
        var pieces: [[OSMNode]] = []
        var current: [OSMNode] = []
        for id in way.nodeIDs {
            if let node = node(id: id) {
                current.append(node)
            } else {
                if current.count >= 2 { pieces.append(current) }
                current = []
            }
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces
    }

    /// How many of the way's node references point at nodes the file does not hold.
    public func absentReferences(of way: OSMWay) -> Int {
        if let positions { return way.nodeIDs.reduce(0) { $0 + (positions.index(of: $1) == nil ? 1 : 0) } }
        return way.nodeIDs.reduce(0) { $0 + (nodePositions[$1] == nil ? 1 : 0) }
    }
}

extension OSMData: OSMElementSink {
    /// Nothing to check: ``OSMData`` holds whatever it is given (``nodes`` grows as it is appended to).
    public mutating func willAddNodes(_ count: Int) {}
    /// Appends the node.
    public mutating func addNode(_ node: OSMNode) { nodes.append(node) }
    /// Appends the way.
    public mutating func addWay(_ way: OSMWay) { ways.append(way) }
    /// Appends the relation.
    public mutating func addRelation(_ relation: OSMRelation) { relations.append(relation) }
}
