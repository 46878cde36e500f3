/// Where the user is, in words a pedestrian can use.
public enum LocationSense: Sendable, Equatable {
    /// Nothing known around the point (no road, place or area within reach).
    case unknown
    /// No position: the last fix is ``LocationContext/Options/staleAfter`` seconds old or more
    /// (a tunnel, a station, a phone that stopped reporting). Soundscape's "Unknown" state: "We
    /// don't have geolocation information." The road, area and intersection kept before are
    /// forgotten, so the first fix back is taken afresh, never the stale road.
    case noLocation(secondsSinceFix: Double)
    /// Inside a named area (the smallest that contains the user), with the nearest road (the road
    /// the user is along, else the nearest within reach) and the nearest place.
    case inside(area: NearbyPlace, nearestRoad: RoadMatch?, nearestPlace: NearbyPlace?)
    /// Along a road (less than ``LocationContext/Options/roadDistance`` away), with the main
    /// intersection ahead on that road and the nearest place.
    case alongRoad(road: RoadMatch, intersectionAhead: IntersectionMatch?, nearestPlace: NearbyPlace?)
    /// Near, not along, a road: the nearest road and place, when there are any within reach.
    case other(nearestRoad: RoadMatch?, nearestPlace: NearbyPlace?)
}

/// What changed in the sense of one fix against the previous fix's.
public struct LocationChanges: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    /// A set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The kind of sense (along a road, inside, other, unknown).
    public static let kind = LocationChanges(rawValue: 1)
    /// The road along (of senses along a road: a change of the nearest road inside an area or
    /// off the roads is not one).
    public static let road = LocationChanges(rawValue: 2)
    /// The area the user is inside.
    public static let area = LocationChanges(rawValue: 4)
    /// A new intersection ahead (another than the last one announced; losing it is not a change).
    public static let intersectionAhead = LocationChanges(rawValue: 8)
    /// The nearest place.
    public static let nearestPlace = LocationChanges(rawValue: 16)
    /// The first fix of the context: everything is new.
    public static let start = LocationChanges(rawValue: 32)
    /// The changes worth an automatic callout: the kind, the road, the area, the intersection ahead.
    public static let worthSaying: LocationChanges = [.kind, .road, .area, .intersectionAhead]
}

/// One fix's answer: the sense, what changed since the previous fix, and whether it is the first.
public struct LocationUpdate: Sendable, Equatable {
    /// The sense at the fix.
    public var sense: LocationSense
    /// What changed against the previous fix's sense (everything for the first fix).
    public var changes: LocationChanges
    /// The fix's direction as the context used it (smoothed), and whether it is a facing one.
    public var direction: (degrees: Double, isFacing: Bool)?

    /// Equal when the sense, the changes and the direction are.
    public static func == (a: LocationUpdate, b: LocationUpdate) -> Bool {
        a.sense == b.sense && a.changes == b.changes && a.direction?.degrees == b.direction?.degrees && a.direction?.isFacing == b.direction?.isFacing
    }

    /// Whether an automatic callout should fire: for the first fix (and the first after a
    /// drop-out), when the position is lost (``LocationSense/noLocation(secondsSinceFix:)``);
    /// afterwards when something in ``LocationChanges/worthSaying`` changed and the user has a
    /// direction (moves, or faces somewhere with a compass). Standing still with no direction,
    /// what the noise of the fixes or a better average changes is kept in the sense but not
    /// spoken: asked, the context answers with it (``LocationContext/last``).
    public var isWorthSaying: Bool {
        if changes.contains(.start) { return true }
        if case .noLocation = sense { return changes.contains(.kind) }
        return direction != nil && !changes.intersection(.worthSaying).isEmpty
    }
}

/// Turns a stream of position fixes into ``LocationSense``s that stay right over time: which road
/// the user is along (steady in GPS noise, quick after a turn), the intersection ahead, the area
/// around, the nearest place; and says what changed, so that callouts are spoken on change.
///
/// The rules (smoothing, inside first, the road kept against a challenger, the intersection ahead,
/// the nearest place, doubtful and sparse fixes, drop-outs, when to speak), each an ``Options``
/// value: Docs/Location.md#the-rules-of-location-sense.
///
/// A value type with no clock: times come with the fixes, so replays and tests are exact.
public struct LocationContext<Source: LocationSource> {
    /// When ``LocationContext/update(_:)`` gives a sense.
    public enum Throttle: Sendable, Equatable {
        /// For every fix.
        case none
        /// For the first fix, then when the road, the area, the kind of sense or the intersection
        /// ahead changed while the user has a direction (``LocationUpdate/isWorthSaying``).
        case onChange
        /// When `seconds` have passed OR the user moved `metres` since the last sense given.
        case timeOrDistance(seconds: Double, metres: Double)
        /// When `seconds` have passed AND the user moved `metres`.
        case timeAndDistance(seconds: Double, metres: Double)
    }

    /// The rules' distances and switches.
    public struct Options: Sendable, Equatable {
        /// A road nearer than this is the road the user is along, in metres.
        public var roadDistance = 20.0
        /// Near a junction closer than this, the kept road stays while the direction runs along it (the sticky rule), in metres.
        public var junctionDistance = 30.0
        /// Whether the sticky rule applies.
        public var sticky = true
        /// Whether, when the fix has a direction, roads that run that way are preferred to nearer ones that do not.
        public var alignment = true
        /// How far off the direction a road may run and still count as running that way, in degrees.
        public var alignmentAngle = 45.0
        /// Fixes in a row that a different road, area or intersection ahead must win before it is taken.
        public var switchFixes = 2
        /// Without a direction, how much nearer a different road must be to win a fix, in metres.
        public var roadMargin = 5.0
        /// Or the metres of travel over which a different road or area must win (the first fix's
        /// step included, so that one fix after a long silence can be enough).
        public var releaseDistance = 8.0
        /// Where an intersection ahead may lie.
        public var aheadCone = AheadCone(radius: 500, angle: 45, lateral: 10, lateralPerMetre: 0.05)
        /// How far ahead an intersection may be, in metres (the cone's radius).
        public var intersectionDistance: Double {
            get { aheadCone.radius }
            set { aheadCone.radius = newValue }
        }
        /// While the intersection ahead stays the same, its distance grows only by more than this,
        /// in metres: by default never (a walker going away from it no longer has it ahead).
        public var holdMargin = Double.infinity
        /// An intersection ahead held at less than this, in metres, is passed: a different one
        /// found next is taken at once.
        public var passingDistance = 10.0
        /// How far the nearest place or road is looked for, in metres.
        public var placeDistance = 200.0
        /// How far inside an area the user must be to enter it, or outside to leave it, in metres
        /// (the first fix excepted: it takes the area that contains it).
        public var areaMargin = 5.0
        /// A fix this far inside a new area, or outside the kept one, in metres, changes it at once.
        public var areaClearMargin = 10.0
        /// A fix whose reported accuracy is worse than this, in metres, changes nothing (the road
        /// distance: it cannot tell a road within reach from one beyond).
        public var switchAccuracy = 20.0
        /// The last fix this many seconds old or more (or twice the usual interval between fixes,
        /// when that is longer: a phone in power saving reports every 15–30 s): no location, and
        /// the next fix starts afresh.
        public var staleAfter = 10.0
        /// How much nearer a different place must be to replace the nearest place kept, in metres.
        public var placeMargin = 10.0
        /// How fixes are smoothed.
        public var smoothing = TrackSmoother.Options()
        /// When a sense is given.
        public var throttle = Throttle.onChange

        /// The defaults above.
        public init() {}
    }

    /// What the context reads its surroundings from.
    public let source: Source
    /// The rules in force.
    public var options: Options {
        didSet { smoother.options = options.smoothing }
    }
    /// The road the user was last along (its name), if any.
    public private(set) var currentRoad: String?
    /// The last fix for which a sense was given.
    public private(set) var lastGiven: LocationFix?
    /// The last fix's answer.
    public private(set) var last: LocationUpdate?
    /// The time of the last fix taken.
    public private(set) var lastFixTime: Double?
    /// Whether the next fix starts afresh (after a drop-out).
    private var startsAfresh = false
    /// The usual interval between fixes, in seconds (a running mean).
    private var usualInterval = 1.0

    /// How old the last fix must be for the position to be lost: ``Options/staleAfter``, or twice
    /// the usual interval between fixes when that is longer.
    public var staleThreshold: Double { max(options.staleAfter, 2 * usualInterval) }

    private var smoother: TrackSmoother
    /// A different road winning: its name, the fixes and metres it has won over.
    private var pendingRoad: PendingChange<String>?
    /// Fixes in a row with the kept road out of reach and no other road.
    private var roadLost = 0
    private var area: NearbyPlace?
    private var pendingArea: PendingChange<String?>?
    private var ahead: IntersectionMatch?
    private var pendingAhead: PendingChange<[String]?>?
    /// The last intersection ahead that was not none (the change rule's memory).
    private var lastAnnouncedAhead: [String]?
    private var place: NearbyPlace?

    /// A context reading `source`.
    public init(source: Source, options: Options = Options()) {
        self.source = source
        self.options = options
        smoother = TrackSmoother(options: options.smoothing)
    }

    /// Takes a fix: updates what is kept, and gives the sense unless the throttle holds it back.
    /// Nil for a throttled fix and for coordinates or a time that are not valid.
    public mutating func update(_ fix: LocationFix) -> LocationSense? {
        guard let update = advance(fix) else { return nil }
        guard shouldGive(fix, update) else { return nil }
        lastGiven = fix
        return update.sense
    }

    /// Takes a fix and gives its whole answer: the sense, what changed, the direction used; nil
    /// for coordinates or a time that are not valid. The throttle does not apply.
    public mutating func advance(_ fix: LocationFix) -> LocationUpdate? {
        guard fix.latitude.isFinite, fix.longitude.isFinite, abs(fix.latitude) <= 90, abs(fix.longitude) <= 180, fix.time.isFinite else { return nil }
        if let lastFixTime {
            if fix.time - lastFixTime >= staleThreshold || fix.time < lastFixTime { forget() }
            if fix.time > lastFixTime { usualInterval += 0.2 * (min(fix.time - lastFixTime, 60) - usualInterval) }
        }
        lastFixTime = fix.time
        let smoothed = smoother.add(fix)
        let sense = self.sense(at: smoothed)
        let direction = smoothed.direction.map { (degrees: $0, isFacing: smoothed.isFacing) }
        var changes = changes(from: last?.sense, to: sense)
        if startsAfresh {
            changes.formUnion([.start, .kind, .road, .area, .intersectionAhead, .nearestPlace])
            startsAfresh = false
        }
        let update = LocationUpdate(sense: sense, changes: changes, direction: direction)
        last = update
        return update
    }

    /// Asks for the sense at `time` without a fix: nil while the last fix is less than
    /// ``staleThreshold`` seconds old (its sense stands) or before any fix; else
    /// ``LocationSense/noLocation(secondsSinceFix:)``, its changes against the last answer (a
    /// change of kind the first time), and no direction. The throttle does not apply.
    public mutating func advance(noFixAt time: Double) -> LocationUpdate? {
        guard time.isFinite, let lastFixTime, time - lastFixTime >= staleThreshold else { return nil }
        let sense = LocationSense.noLocation(secondsSinceFix: time - lastFixTime)
        var changes: LocationChanges = []
        if last?.sense.kindName != sense.kindName { changes = [.kind, .road, .area, .nearestPlace] }
        let update = LocationUpdate(sense: sense, changes: changes, direction: nil)
        last = update
        startsAfresh = true
        return update
    }

    /// ``advance(noFixAt:)``'s sense, when it is worth saying (the first time the position is lost).
    public mutating func update(noFixAt time: Double) -> LocationSense? {
        guard let update = advance(noFixAt: time), update.isWorthSaying else { return nil }
        return update.sense
    }

    /// Forgets what was kept (after a drop-out): the next fix is taken as a first one.
    private mutating func forget() {
        currentRoad = nil
        pendingRoad = nil
        roadLost = 0
        area = nil
        pendingArea = nil
        ahead = nil
        pendingAhead = nil
        lastAnnouncedAhead = nil
        place = nil
        startsAfresh = true
    }

    /// Whether `fix` passes the throttle.
    func shouldGive(_ fix: LocationFix, _ update: LocationUpdate) -> Bool {
        switch options.throttle {
        case .none: return true
        case .onChange: return update.isWorthSaying  // the first fix's changes are everything
        case .timeOrDistance, .timeAndDistance: break
        }
        guard let last = lastGiven, fix.time >= last.time else { return true }
        let elapsed = fix.time - last.time
        let moved = Geodesic.distance(latitude: last.latitude, longitude: last.longitude, toLatitude: fix.latitude, longitude: fix.longitude)
        if case let .timeAndDistance(seconds, metres) = options.throttle { return elapsed >= seconds && moved >= metres }
        if case let .timeOrDistance(seconds, metres) = options.throttle { return elapsed >= seconds || moved >= metres }
        return true
    }

    /// The sense at a smoothed fix, updating what is kept.
    mutating func sense(at fix: TrackSmoother.Smoothed) -> LocationSense {
        let latitude = fix.latitude, longitude = fix.longitude
        let isFirst = last == nil || startsAfresh
        let canSwitch = Self.canSwitch(fix, options: options)
        // Roads within reach of the kept road's grace; those nearer than roadDistance are along.
        let reach = options.roadDistance * 1.5
        let nearby = source.roads(latitude: latitude, longitude: longitude, within: reach)
        let previousRoad = currentRoad
        let road = chooseRoad(nearby, fix: fix, isFirst: isFirst)
        currentRoad = road?.name
        let roadChanged = previousRoad != currentRoad

        // Area: the smallest containing one; a change must be clear of the edge and hold for switchFixes fixes.
        let foundArea = source.areas(latitude: latitude, longitude: longitude).first
        if isFirst || foundArea?.name == area?.name {
            area = foundArea
            pendingArea = nil
        } else if !canSwitch {
            // a doubtful fix: the area stays, the evidence so far too
        } else if isClear(entering: foundArea, leaving: area, latitude: latitude, longitude: longitude, margin: options.areaMargin) {
            let pending = PendingChange.counting(foundArea?.name, after: pendingArea, walked: Self.walked(fix, options: options))
            pendingArea = pending
            if pending.hasWon(options) || isClear(entering: foundArea, leaving: area, latitude: latitude, longitude: longitude, margin: options.areaClearMargin) {
                area = foundArea
                pendingArea = nil
            }
        } else {
            pendingArea = nil
        }

        let nearestPlace = chooseNearestPlace(latitude: latitude, longitude: longitude)

        if let area {
            let nearestRoad = road ?? nearestRoad(nearby, latitude: latitude, longitude: longitude)
            return .inside(area: area, nearestRoad: nearestRoad, nearestPlace: nearestPlace)
        }
        if let road {
            // A new road, or along one again after another kind of sense: no intersection to hold.
            let wasAlong = last?.sense.roadAlong != nil
            let ahead = chooseAhead(on: road, fix: fix, reset: isFirst || roadChanged || !wasAlong, canSwitch: canSwitch)
            return .alongRoad(road: road, intersectionAhead: ahead, nearestPlace: nearestPlace)
        }
        ahead = nil
        pendingAhead = nil
        let nearestRoad = self.nearestRoad(nearby, latitude: latitude, longitude: longitude)
        if nearestRoad == nil && nearestPlace == nil { return .unknown }
        return .other(nearestRoad: nearestRoad, nearestPlace: nearestPlace)
    }

    /// The travel a fix adds to the evidence for a change: its step, but no more than a walk at
    /// ``TrackSmoother/Options/walkingSpeed`` covers in its interval (a fix 10 s after the last, 14 m on, is
    /// evidence; a 15 m jump in 1 s is noise).
    static func walked(_ fix: TrackSmoother.Smoothed, options: Options) -> Double {
        min(fix.step, options.smoothing.walkingSpeed * fix.interval)
    }

    /// Whether a smoothed fix may change what is kept: it was not set aside as a jump, and its
    /// reported accuracy (when known) is no worse than ``Options/switchAccuracy``.
    static func canSwitch(_ fix: TrackSmoother.Smoothed, options: Options) -> Bool {
        !fix.isOutlier && (fix.accuracy ?? 0) <= options.switchAccuracy
    }

    /// Whether the point is clear of the edges an area change crosses: the four points `margin`
    /// metres north, east, south and west of it all lie in `entering` (when there is one) and
    /// none in `leaving` (when it is left for no area). Walking along a street at a park's or
    /// campus's edge then does not flip between inside and along.
    func isClear(entering: NearbyPlace?, leaving: NearbyPlace?, latitude: Double, longitude: Double, margin: Double) -> Bool {
        guard margin > 0 else { return true }
        let plane = LocalPlane(latitude: latitude, longitude: longitude)
        let north = margin / plane.metresPerDegreeNorth, east = margin / plane.metresPerDegreeEast
        for (dy, dx) in [(north, 0.0), (0.0, east), (-north, 0.0), (0.0, -east)] {
            let around = source.areas(latitude: latitude + dy, longitude: longitude + dx)
            if let entering {
                guard around.contains(where: { $0.name == entering.name }) else { return false }
            } else if let leaving, around.contains(where: { $0.name == leaving.name }) {
                return false
            }
        }
        return true
    }

    /// The nearest road within the place distance: the nearest of `nearby`, else asked farther.
    func nearestRoad(_ nearby: [RoadMatch], latitude: Double, longitude: Double) -> RoadMatch? {
        if let first = nearby.first { return first }
        guard options.placeDistance > options.roadDistance * 1.5 else { return nil }
        return source.roads(latitude: latitude, longitude: longitude, within: options.placeDistance).first
    }

    /// The road rule (see the type's documentation).
    mutating func chooseRoad(_ nearby: [RoadMatch], fix: TrackSmoother.Smoothed, isFirst: Bool = false) -> RoadMatch? {
        let close = nearby.filter { $0.distance < options.roadDistance }
        let direction = options.alignment ? fix.direction : nil
        var ranked = close
        if let direction {
            let aligned = close.filter { Self.isAlong($0, direction: direction, angle: options.alignmentAngle) }
            ranked = aligned + close.filter { road in !aligned.contains { $0.name == road.name } }
        }
        let challenger = ranked.first
        guard let keptName = currentRoad, let kept = nearby.first(where: { $0.name == keptName }) else {
            pendingRoad = nil
            roadLost = 0
            return challenger
        }
        // A doubtful fix keeps the road (and wins nothing for another).
        guard isFirst || Self.canSwitch(fix, options: options) else { return kept }
        if kept.distance >= options.roadDistance {
            pendingRoad = nil
            if let challenger {
                roadLost = 0
                return challenger
            }
            // No other road within reach, and the walker still goes the kept road's way: a GPS
            // bias that drifts (tens of seconds of 20–30 m off), not a walker who left it.
            if let direction = fix.direction, !fix.isFacing, Self.runs(kept.direction, along: direction, within: options.alignmentAngle) {
                roadLost = 0
                return kept
            }
            roadLost += 1
            if roadLost >= options.switchFixes {
                roadLost = 0
                return nil
            }
            return kept
        }
        roadLost = 0
        guard let challenger, challenger.name != kept.name else {
            pendingRoad = nil
            return kept
        }
        let evidence: Bool
        let source = self.source, junctionDistance = options.junctionDistance
        func nearJunction() -> Bool {
            source.hasIntersection(latitude: fix.latitude, longitude: fix.longitude, within: junctionDistance)
        }
        if let direction {
            let keptAlong = Self.isAlong(kept, direction: direction, angle: options.alignmentAngle)
            let challengerAlong = Self.isAlong(challenger, direction: direction, angle: options.alignmentAngle)
            if challengerAlong && !keptAlong {
                evidence = true
            } else if options.sticky && nearJunction() {
                evidence = false
            } else {
                evidence = challenger.distance < kept.distance
            }
        } else {
            // No direction (standing, or no course): only a clearly nearer road, away from junctions.
            evidence = !(options.sticky && nearJunction()) && challenger.distance + options.roadMargin < kept.distance
        }
        guard evidence else {
            pendingRoad = nil
            return kept
        }
        let pending = PendingChange.counting(challenger.name, after: pendingRoad, walked: Self.walked(fix, options: options))
        if pending.hasWon(options) {
            pendingRoad = nil
            return challenger
        }
        pendingRoad = pending
        return kept
    }

    /// Whether the user, going `direction`, runs along `road`: its segment runs that way (within
    /// `angle`, either way) and the user is beside it, not past its end (the nearest point is
    /// abeam, within 30° of square to the road, or less than 5 m away).
    static func isAlong(_ road: RoadMatch, direction: Double, angle: Double) -> Bool {
        guard runs(road.direction, along: direction, within: angle) else { return false }
        guard road.distance >= 5 else { return true }
        let offset = Compass.difference(road.bearing, road.direction)
        return offset >= 60 && offset <= 120
    }

    /// Whether a road whose segment points `roadDirection` runs along `direction` (either way) within `angle` degrees.
    static func runs(_ roadDirection: Double, along direction: Double, within angle: Double) -> Bool {
        let difference = Compass.difference(roadDirection, direction)
        return difference <= angle || difference >= 180 - angle
    }

    /// The nearest place rule: a different place must be nearer than the kept one by the margin.
    /// The kept one is measured again from where it is (when the source says), so only the
    /// nearest place is searched for.
    mutating func chooseNearestPlace(latitude: Double, longitude: Double) -> NearbyPlace? {
        // The nearest is usually near: a small circle first gives the same answer when it holds one.
        let best = source.places(latitude: latitude, longitude: longitude, within: min(options.placeDistance, 50), limit: 1).first
            ?? (options.placeDistance > 50 ? source.places(latitude: latitude, longitude: longitude, within: options.placeDistance, limit: 1).first : nil)
        guard var kept = place, let best, best.name != kept.name else {
            place = best
            return place
        }
        if let keptLatitude = kept.latitude, let keptLongitude = kept.longitude {
            kept.distance = Geodesic.distance(latitude: latitude, longitude: longitude, toLatitude: keptLatitude, longitude: keptLongitude)
            kept.bearing = Compass.bearing(fromLatitude: latitude, longitude: longitude, toLatitude: keptLatitude, longitude: keptLongitude)
        } else if let again = source.places(latitude: latitude, longitude: longitude, within: options.placeDistance, limit: 8).first(where: { $0.name == kept.name }) {
            kept = again
        } else {
            place = best
            return place
        }
        place = kept.distance <= options.placeDistance && best.distance + options.placeMargin >= kept.distance ? kept : best
        return place
    }

    /// The intersection-ahead rule on `road`; `reset` after a road change or the first fix.
    mutating func chooseAhead(on road: RoadMatch, fix: TrackSmoother.Smoothed, reset: Bool, canSwitch: Bool = true) -> IntersectionMatch? {
        var found: IntersectionMatch?
        if let direction = fix.direction {
            // The road's own direction, turned the walker's way, from the point on the road.
            let roadWay = Compass.difference(road.direction, direction) <= 90 ? road.direction : Compass.normalised(road.direction + 180)
            found = source.intersectionAhead(along: road, latitude: fix.latitude, longitude: fix.longitude, direction: roadWay, cone: options.aheadCone)
        }
        if reset {
            pendingAhead = nil
            ahead = found
        } else if !canSwitch && found?.streetNames != ahead?.streetNames {
            // a doubtful fix: the one held stays
        } else if found?.streetNames == ahead?.streetNames {
            pendingAhead = nil
            if let new = found, let held = ahead, new.distance > held.distance, new.distance - held.distance <= options.holdMargin {
                ahead?.bearing = new.bearing  // hold the distance: noise, not the walker
            } else {
                ahead = found
            }
        } else {
            // Counted in fixes only: metres of travel are how an intersection ahead is passed, not evidence.
            let pending = PendingChange.counting(found?.streetNames, after: pendingAhead, walked: 0)
            pendingAhead = pending
            // Passing the one held (less than the hold margin ahead) takes the next at once.
            if pending.fixes >= options.switchFixes || ahead == nil || (ahead?.distance ?? .infinity) < options.passingDistance {
                pendingAhead = nil
                ahead = found
            }  // else the one held stays for now
        }
        return ahead
    }

    /// What changed from `old` to `new` (everything when there is no old).
    mutating func changes(from old: LocationSense?, to new: LocationSense) -> LocationChanges {
        let newAhead = new.intersectionAhead?.streetNames
        var changes: LocationChanges = []
        if let newAhead, newAhead != lastAnnouncedAhead { changes.insert(.intersectionAhead) }
        if let newAhead { lastAnnouncedAhead = newAhead }
        guard let old else { return [.start, .kind, .road, .area, .intersectionAhead, .nearestPlace] }
        if old.kindName != new.kindName { changes.insert(.kind) }
        if old.roadAlong?.name != new.roadAlong?.name { changes.insert(.road) }
        if old.area?.name != new.area?.name { changes.insert(.area) }
        if old.nearestPlace?.name != new.nearestPlace?.name { changes.insert(.nearestPlace) }
        return changes
    }
}

extension LocationSense {
    /// "along_road", "inside", "other", "unknown" or "no_location".
    public var kindName: String {
        switch self {
        case .unknown: return "unknown"
        case .noLocation: return "no_location"
        case .inside: return "inside"
        case .alongRoad: return "along_road"
        case .other: return "other"
        }
    }

    /// The road along, or the nearest road.
    public var road: RoadMatch? {
        switch self {
        case .unknown, .noLocation: return nil
        case let .inside(_, road, _): return road
        case let .alongRoad(road, _, _): return road
        case let .other(road, _): return road
        }
    }

    /// The road the user is along (of an ``alongRoad`` sense only).
    public var roadAlong: RoadMatch? {
        if case let .alongRoad(road, _, _) = self { return road }
        return nil
    }

    /// The area the user is inside.
    public var area: NearbyPlace? {
        if case let .inside(area, _, _) = self { return area }
        return nil
    }

    /// The intersection ahead.
    public var intersectionAhead: IntersectionMatch? {
        if case let .alongRoad(_, ahead, _) = self { return ahead }
        return nil
    }

    /// The nearest place.
    public var nearestPlace: NearbyPlace? {
        switch self {
        case .unknown, .noLocation: return nil
        case let .inside(_, _, place): return place
        case let .alongRoad(_, _, place): return place
        case let .other(_, place): return place
        }
    }
}

/// A challenger to what the context holds (a road, an area, an intersection ahead), with the fixes
/// in a row and the metres of travel that back it: the one rule by which a change must win
/// ``LocationContext/Options/switchFixes`` fixes or ``LocationContext/Options/releaseDistance`` metres.
struct PendingChange<Value: Equatable>: Equatable {
    /// What would replace the value held.
    var value: Value
    /// Fixes in a row that found it.
    var fixes: Int
    /// Metres travelled over those fixes.
    var travelled: Double

    /// The evidence for `value` after one more fix that found it: `previous` counted on when it backs
    /// the same value, else a fresh start, plus this fix and the `walked` metres.
    static func counting(_ value: Value, after previous: PendingChange?, walked: Double) -> PendingChange {
        var next = previous.flatMap { $0.value == value ? $0 : nil } ?? PendingChange(value: value, fixes: 0, travelled: 0)
        next.fixes += 1
        next.travelled += walked
        return next
    }

    /// Whether the evidence is enough to change: `switchFixes` fixes or `releaseDistance` metres.
    func hasWon<Source>(_ options: LocationContext<Source>.Options) -> Bool {
        fixes >= options.switchFixes || travelled >= options.releaseDistance
    }
}
