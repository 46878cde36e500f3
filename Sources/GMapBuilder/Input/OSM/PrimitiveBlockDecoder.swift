/// Decodes one `PrimitiveBlock` of an OSM PBF file (osmformat.proto): its string table, its
/// coordinate scale, and its groups of nodes, dense nodes, ways and relations.
///
/// Coordinates are `offset + granularity × value` nanodegrees; string indexes refer to the
/// block's table (index 0 is the empty string); ids, dense coordinates, way references and
/// relation members are delta-coded. Every index, array length and coordinate is checked, and
/// arithmetic on hostile values cannot trap.
struct PrimitiveBlockDecoder {
    let block: [UInt8]
    let blob: Int
    let file: String
    private var strings: [String] = []
    private var granularity: Int64 = 100
    private var latitudeOffset: Int64 = 0
    private var longitudeOffset: Int64 = 0

    init(block: [UInt8], blob: Int, file: String) {
        self.block = block
        self.blob = blob
        self.file = file
    }

    /// An error at `byte` of the block.
    private func failure(_ byte: Int, _ reason: OSMPBFError.Reason) -> OSMPBFError {
        OSMPBFError(file: file, blob: blob, byte: byte, inBlockData: true, reason: reason)
    }

    /// Reads the block: the scale and the string table first (wherever they are), then the groups.
    mutating func decode<Sink: OSMElementSink>(into sink: inout Sink) throws {
        var reader = ProtobufReader(block[...])
        var groups: [ArraySlice<UInt8>] = []
        while let field = try reader.nextField() {
            switch field.number {
            case 1:
                try reader.expect(field.wireType, .lengthDelimited, field: "PrimitiveBlock.stringtable")
                var table = ProtobufReader(try reader.readLengthDelimited())
                while let entry = try table.nextField() {
                    if entry.number == 1, entry.wireType == .lengthDelimited { strings.append(try table.readString()) } else { try table.skip(entry.wireType) }
                }
            case 2:
                try reader.expect(field.wireType, .lengthDelimited, field: "PrimitiveBlock.primitivegroup")
                groups.append(try reader.readLengthDelimited())
            case 17:
                try reader.expect(field.wireType, .varint, field: "PrimitiveBlock.granularity")
                let start = reader.position
                granularity = try reader.readInt64()
                guard granularity > 0, granularity <= 1_000_000_000 else {
                    throw failure(start, .badMessage("granularity \(granularity) nanodegrees is not in 1…10^9"))
                }
            case 19:
                try reader.expect(field.wireType, .varint, field: "PrimitiveBlock.lat_offset")
                latitudeOffset = try reader.readInt64()
            case 20:
                try reader.expect(field.wireType, .varint, field: "PrimitiveBlock.lon_offset")
                longitudeOffset = try reader.readInt64()
            default:
                try reader.skip(field.wireType)
            }
        }
        for group in groups { try decodeGroup(group, into: &sink) }
    }

    private func decodeGroup<Sink: OSMElementSink>(_ bytes: ArraySlice<UInt8>, into sink: inout Sink) throws {
        var reader = ProtobufReader(bytes)
        while let field = try reader.nextField() {
            switch field.number {
            case 1:
                try reader.expect(field.wireType, .lengthDelimited, field: "PrimitiveGroup.nodes")
                try sink.willAddNodes(1)
                try sink.addNode(try decodeNode(try reader.readLengthDelimited()))
            case 2:
                try reader.expect(field.wireType, .lengthDelimited, field: "PrimitiveGroup.dense")
                try decodeDense(try reader.readLengthDelimited(), into: &sink)
            case 3:
                try reader.expect(field.wireType, .lengthDelimited, field: "PrimitiveGroup.ways")
                try sink.addWay(try decodeWay(try reader.readLengthDelimited()))
            case 4:
                try reader.expect(field.wireType, .lengthDelimited, field: "PrimitiveGroup.relations")
                try sink.addRelation(try decodeRelation(try reader.readLengthDelimited()))
            default:
                try reader.skip(field.wireType)  // changesets and anything newer
            }
        }
    }

    // MARK: Elements

    private func decodeNode(_ bytes: ArraySlice<UInt8>) throws -> OSMNode {
        var reader = ProtobufReader(bytes)
        var id: Int64 = 0, latitude: Int64 = 0, longitude: Int64 = 0
        var keys: [Int64] = [], values: [Int64] = []
        while let field = try reader.nextField() {
            switch field.number {
            case 1: id = try reader.readSignedVarint()
            case 2: try reader.readIntegers(field.wireType, signed: false, into: &keys)
            case 3: try reader.readIntegers(field.wireType, signed: false, into: &values)
            case 8: latitude = try reader.readSignedVarint()
            case 9: longitude = try reader.readSignedVarint()
            default: try reader.skip(field.wireType)
            }
        }
        return OSMNode(id: id, latitudeNanodegrees: try nanodegrees(latitude, offset: latitudeOffset, limit: 90, node: id, at: bytes.startIndex, other: longitude),
                       longitudeNanodegrees: try nanodegrees(longitude, offset: longitudeOffset, limit: 180, node: id, at: bytes.startIndex, other: latitude),
                       tags: try tags(keys: keys, values: values, at: bytes.startIndex))
    }

    private func decodeDense<Sink: OSMElementSink>(_ bytes: ArraySlice<UInt8>, into sink: inout Sink) throws {
        var reader = ProtobufReader(bytes)
        var ids: [Int64] = [], latitudes: [Int64] = [], longitudes: [Int64] = [], keysValues: [Int64] = []
        while let field = try reader.nextField() {
            switch field.number {
            case 1: try reader.readIntegers(field.wireType, signed: true, into: &ids)
            case 8: try reader.readIntegers(field.wireType, signed: true, into: &latitudes)
            case 9: try reader.readIntegers(field.wireType, signed: true, into: &longitudes)
            case 10: try reader.readIntegers(field.wireType, signed: false, into: &keysValues)
            default: try reader.skip(field.wireType)
            }
        }
        guard ids.count == latitudes.count, ids.count == longitudes.count else {
            throw failure(bytes.startIndex, .mismatchedArrays("a dense node group has \(ids.count) ids, \(latitudes.count) latitudes and \(longitudes.count) longitudes"))
        }
        var id: Int64 = 0, latitude: Int64 = 0, longitude: Int64 = 0
        var tagPosition = 0
        try sink.willAddNodes(ids.count)
        for index in ids.indices {
            id = id &+ ids[index]
            latitude = latitude &+ latitudes[index]
            longitude = longitude &+ longitudes[index]
            // keys_vals: for each node, key and value indexes in pairs, then 0; empty when no node has tags.
            var tags: [OSMTag] = []
            if !keysValues.isEmpty {
                while true {
                    guard tagPosition < keysValues.count else {
                        throw failure(bytes.startIndex, .mismatchedArrays("a dense node group's keys_vals ends before node \(id)'s tags do"))
                    }
                    let key = keysValues[tagPosition]
                    tagPosition += 1
                    if key == 0 { break }
                    guard tagPosition < keysValues.count else {
                        throw failure(bytes.startIndex, .mismatchedArrays("a dense node group's keys_vals has a key without a value for node \(id)"))
                    }
                    tags.append(OSMTag(key: try string(key, at: bytes.startIndex), value: try string(keysValues[tagPosition], at: bytes.startIndex)))
                    tagPosition += 1
                }
            }
            try sink.addNode(OSMNode(id: id,
                                 latitudeNanodegrees: try nanodegrees(latitude, offset: latitudeOffset, limit: 90, node: id, at: bytes.startIndex, other: longitude),
                                 longitudeNanodegrees: try nanodegrees(longitude, offset: longitudeOffset, limit: 180, node: id, at: bytes.startIndex, other: latitude),
                                 tags: tags))
        }
    }

    private func decodeWay(_ bytes: ArraySlice<UInt8>) throws -> OSMWay {
        var reader = ProtobufReader(bytes)
        var id: Int64 = 0
        var keys: [Int64] = [], values: [Int64] = [], references: [Int64] = []
        while let field = try reader.nextField() {
            switch field.number {
            case 1: id = try reader.readInt64()
            case 2: try reader.readIntegers(field.wireType, signed: false, into: &keys)
            case 3: try reader.readIntegers(field.wireType, signed: false, into: &values)
            case 8: try reader.readIntegers(field.wireType, signed: true, into: &references)
            default: try reader.skip(field.wireType)
            }
        }
        var node: Int64 = 0
        let nodeIDs = references.map { delta -> Int64 in
            node = node &+ delta
            return node
        }
        return OSMWay(id: id, nodeIDs: nodeIDs, tags: try tags(keys: keys, values: values, at: bytes.startIndex))
    }

    private func decodeRelation(_ bytes: ArraySlice<UInt8>) throws -> OSMRelation {
        var reader = ProtobufReader(bytes)
        var id: Int64 = 0
        var keys: [Int64] = [], values: [Int64] = [], roles: [Int64] = [], memberIDs: [Int64] = [], types: [Int64] = []
        while let field = try reader.nextField() {
            switch field.number {
            case 1: id = try reader.readInt64()
            case 2: try reader.readIntegers(field.wireType, signed: false, into: &keys)
            case 3: try reader.readIntegers(field.wireType, signed: false, into: &values)
            case 8: try reader.readIntegers(field.wireType, signed: false, into: &roles)
            case 9: try reader.readIntegers(field.wireType, signed: true, into: &memberIDs)
            case 10: try reader.readIntegers(field.wireType, signed: false, into: &types)
            default: try reader.skip(field.wireType)
            }
        }
        guard roles.count == memberIDs.count, types.count == memberIDs.count else {
            throw failure(bytes.startIndex, .mismatchedArrays("relation \(id) has \(memberIDs.count) members, \(roles.count) roles and \(types.count) types"))
        }
        var members: [OSMMember] = []
        members.reserveCapacity(memberIDs.count)
        var member: Int64 = 0
        for index in memberIDs.indices {
            member = member &+ memberIDs[index]
            guard let kind = OSMElementKind(rawValue: Int(clamping: types[index])) else {
                throw failure(bytes.startIndex, .badMessage("relation \(id)'s member \(index + 1) has type \(types[index]), not 0 (node), 1 (way) or 2 (relation)"))
            }
            members.append(OSMMember(kind: kind, id: member, role: try string(roles[index], at: bytes.startIndex)))
        }
        return OSMRelation(id: id, members: members, tags: try tags(keys: keys, values: values, at: bytes.startIndex))
    }

    // MARK: Values

    private func string(_ index: Int64, at byte: Int) throws(OSMPBFError) -> String {
        guard index >= 0, index < Int64(strings.count) else { throw failure(byte, .badStringIndex(index, tableSize: strings.count)) }
        return strings[Int(index)]
    }

    private func tags(keys: [Int64], values: [Int64], at byte: Int) throws(OSMPBFError) -> [OSMTag] {
        guard keys.count == values.count else {
            throw failure(byte, .mismatchedArrays("an element has \(keys.count) tag keys and \(values.count) values"))
        }
        var tags: [OSMTag] = []
        tags.reserveCapacity(keys.count)
        for index in keys.indices {
            tags.append(OSMTag(key: try string(keys[index], at: byte), value: try string(values[index], at: byte)))
        }
        return tags
    }

    /// `offset + granularity × value` nanodegrees, checked to lie within ±`limit` degrees.
    private func nanodegrees(_ value: Int64, offset: Int64, limit: Int64, node: Int64, at byte: Int, other: Int64) throws(OSMPBFError) -> Int64 {
        let (scaled, overflow) = value.multipliedReportingOverflow(by: granularity)
        let (result, overflow2) = scaled.addingReportingOverflow(offset)
        guard !overflow, !overflow2, result >= -limit * 1_000_000_000, result <= limit * 1_000_000_000 else {
            let degrees = overflow || overflow2 ? Double(value) * Double(granularity) / 1e9 + Double(offset) / 1e9 : Double(result) / 1e9
            let otherDegrees = Double(other) * Double(granularity) / 1e9 + Double(limit == 90 ? longitudeOffset : latitudeOffset) / 1e9
            throw failure(byte, .coordinateOutOfRange(nodeID: node, latitude: limit == 90 ? degrees : otherDegrees,
                                                      longitude: limit == 90 ? otherDegrees : degrees))
        }
        return result
    }
}
