/// Smooths a walker's fixes over time: a steadier position (GPS noise of 5–10 m halved) and a
/// course taken over the last metres of travel rather than from fix to fix.
///
/// The position is an alpha–beta filter in a local plane (metres east and north) that sets jumps
/// aside (a fix 20–50 m off for a few fixes: ``Smoothed/isOutlier``) and, while the walker stands
/// still, averages the fixes; the direction is the heading or course averaged over the last
/// ``Options/courseDistance`` metres of travel. ``Options`` holds the gains and windows; the rules,
/// step by step: Docs/Location.md#how-tracksmoother-smooths-fixes.
///
/// A value type with no clock: times come with the fixes.
public struct TrackSmoother: Sendable {
    /// The filter's gains and windows.
    public struct Options: Sendable, Equatable {
        /// The share of the way from the prediction to the fix that the position moves (0 … 1; 1 follows the fixes exactly).
        public var positionGain = 0.35
        /// The share of the remaining difference, per second, that the velocity takes.
        public var velocityGain = 0.02
        /// A gap longer than this, in seconds, starts the filter again.
        public var maximumGap = 10.0
        /// A fix is set aside as a jump only when it lies farther than this from the prediction, in metres.
        public var outlierDistance = 15.0
        /// And farther than this many times the typical distance of the fixes taken.
        public var outlierSpread = 3.0
        /// This many fixes set aside in a row are a real move: the filter starts again at the last.
        public var outlierFixes = 4
        /// Jumps are looked for only between fixes at most this many seconds apart (farther apart,
        /// a jump cannot be told from a walk).
        public var outlierInterval = 6.0
        /// The fastest walk, in metres a second: the distance a jump must exceed grows by this per second between fixes.
        public var walkingSpeed = 2.5
        /// A fix whose reported accuracy is worse than this, in metres, moves the position by the
        /// gain times (this ÷ accuracy)².
        public var trustedAccuracy = 20.0
        /// The travel over which a fix's course or heading is averaged, in metres.
        public var courseDistance = 4.0
        /// At most this many fixes are averaged.
        public var courseFixes = 4
        /// While standing still, the position is the mean of up to this many fixes (a running mean
        /// that then forgets the oldest at this rate).
        public var stillFixes = 30
        /// The window of a direction derived from movement, in seconds.
        public var derivedWindow = 30.0
        /// The net movement over the window that a derived direction needs, in metres.
        public var derivedDistance = 30.0

        /// The defaults above.
        public init() {}
    }

    /// A smoothed fix: where, which way, and how far the walker moved since the previous one.
    public struct Smoothed: Sendable, Equatable {
        /// The smoothed position, in degrees.
        public var latitude: Double, longitude: Double
        /// The smoothed direction in 0 ..< 360 and whether it is a facing (compass) one; nil when unknown.
        public var direction: Double?
        /// Whether ``direction`` is where the user faces (compass) rather than where they move.
        public var isFacing: Bool
        /// Metres between this smoothed position and the previous one (0 for the first).
        public var step: Double
        /// Whether the fix was set aside as a jump (the position is the prediction).
        public var isOutlier = false
        /// The fix's reported accuracy in metres, when known (``LocationFix/accuracy``).
        public var accuracy: Double?
        /// Whether the filter started again at this fix (the first fix, or after a gap or a real move).
        public var isRestart = false
        /// Seconds since the previous fix (0 for the first, or after a restart).
        public var interval = 0.0
    }

    /// The gains and windows in force.
    public var options: Options
    private var position: (latitude: Double, longitude: Double)?
    private var velocity = (east: 0.0, north: 0.0)
    private var time = 0.0
    /// Fixes averaged while standing still.
    private var stillFixes = 0
    /// Fixes set aside in a row.
    private var outlierRun = 0
    /// The running mean of the squared distance from prediction to fix, of the fixes taken, in m².
    private var typicalSquared = 64.0
    /// Recent fixes: time, smoothed position, travel from the previous one, and the fix's own direction.
    private var recent: [(time: Double, latitude: Double, longitude: Double, rawLatitude: Double, rawLongitude: Double, step: Double,
                          direction: Double?, isFacing: Bool)] = []

    /// A smoother with `options`.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Whether no fix has been taken since the start (or a restart).
    public var isEmpty: Bool { position == nil }

    /// Takes a fix (valid coordinates and time, as ``LocationContext`` checks) and gives the smoothed one.
    public mutating func add(_ fix: LocationFix) -> Smoothed {
        let own = fix.direction
        var step = 0.0
        var isOutlier = false, isRestart = false, interval = 0.0
        if let last = position, fix.time >= time, fix.time - time <= options.maximumGap {
            interval = fix.time - time
            let dt = fix.time - time
            let plane = LocalPlane(latitude: last.latitude, longitude: last.longitude)
            if let course = fix.course, course.isFinite {
                // Keep the speed along the course, turned onto it.
                let radians = Compass.normalised(course) * Double.pi / 180
                let unit = (east: Trigonometry.sin(radians), north: Trigonometry.cos(radians))
                let speed = max(0, velocity.east * unit.east + velocity.north * unit.north)
                velocity = (speed * unit.east, speed * unit.north)
            }
            let predicted = (east: velocity.east * dt, north: velocity.north * dt)
            let measured = plane.project(latitude: fix.latitude, longitude: fix.longitude)
            let residual = (east: measured.x - predicted.east, north: measured.y - predicted.north)
            let squared = residual.east * residual.east + residual.north * residual.north
            // Beyond the walk the interval allows; with sparse fixes a jump cannot be told from a walk.
            let gate = max(options.outlierDistance, options.outlierSpread * typicalSquared.squareRoot()) + options.walkingSpeed * dt
            if dt <= options.outlierInterval, squared > gate * gate {
                outlierRun += 1
                isOutlier = outlierRun < options.outlierFixes
            } else {
                outlierRun = 0
                typicalSquared += 0.1 * (min(squared, gate * gate) - typicalSquared)
            }
            if dt <= options.outlierInterval, squared > gate * gate, !isOutlier {
                restart(fix)  // a real move
                isRestart = true
            } else if isOutlier {
                // Dead reckoning: the prediction, the velocity kept.
                position = (last.latitude + predicted.north / plane.metresPerDegreeNorth, last.longitude + predicted.east / plane.metresPerDegreeEast)
                step = (predicted.east * predicted.east + predicted.north * predicted.north).squareRoot()
                time = fix.time
            } else {
                var gain = Self.gain(options.positionGain, seconds: dt)
                if let accuracy = fix.accuracy, accuracy > options.trustedAccuracy {
                    gain *= (options.trustedAccuracy / accuracy) * (options.trustedAccuracy / accuracy)
                }
                let east = predicted.east + gain * residual.east
                let north = predicted.north + gain * residual.north
                if dt > 0 {
                    velocity.east += options.velocityGain * residual.east / dt
                    velocity.north += options.velocityGain * residual.north / dt
                }
                position = (last.latitude + north / plane.metresPerDegreeNorth, last.longitude + east / plane.metresPerDegreeEast)
                step = (east * east + north * north).squareRoot()
                time = fix.time
            }
        } else {
            restart(fix)
            isRestart = true
        }
        var current = position ?? (fix.latitude, fix.longitude)
        recent.append((fix.time, current.latitude, current.longitude, fix.latitude, fix.longitude, step, own?.degrees, own?.isFacing ?? false))
        // Keep what the two windows need.
        while recent.count > 64 || (recent.count > options.courseFixes && (recent.first.map { fix.time - $0.time > options.derivedWindow } ?? false)) {
            recent.removeFirst()
        }
        let direction = smoothedDirection() ?? derivedDirection()
        // Standing still (no course, heading or steady movement): the mean of the fixes since the
        // walker stopped, the best estimate of a place that does not move.
        if direction == nil, own == nil, fix.course == nil {
            stillFixes = min(stillFixes + 1, options.stillFixes)
            if isOutlier {
                step = 0  // a jump does not move one standing still
            } else if stillFixes > 1, let previous = position {
                let weight = 1 / Double(stillFixes)
                let mean = (latitude: previous.latitude + (fix.latitude - previous.latitude) * weight,
                            longitude: previous.longitude + (fix.longitude - previous.longitude) * weight)
                let plane = LocalPlane(latitude: current.latitude, longitude: current.longitude)
                let moved = plane.project(latitude: mean.latitude, longitude: mean.longitude)
                step = (moved.x * moved.x + moved.y * moved.y).squareRoot()
                position = mean
                velocity = (0, 0)
                current = mean
                recent[recent.count - 1].latitude = mean.latitude
                recent[recent.count - 1].longitude = mean.longitude
                recent[recent.count - 1].step = step
            } else {
                position = (fix.latitude, fix.longitude)
                current = (fix.latitude, fix.longitude)
            }
        } else {
            stillFixes = 0
        }
        return Smoothed(latitude: current.latitude, longitude: current.longitude, direction: direction?.degrees,
                        isFacing: direction?.isFacing ?? false, step: step, isOutlier: isOutlier, accuracy: fix.accuracy, isRestart: isRestart, interval: isRestart ? 0 : interval)
    }

    /// The position gain for fixes `seconds` apart: `gain` per second, compounded (1 − (1 − gain)^seconds),
    /// so that sparse fixes, whose prediction is less sure, move the position further.
    static func gain(_ gain: Double, seconds: Double) -> Double {
        guard gain < 1, seconds > 1 else { return gain }
        let keep = 1 - gain
        var kept = 1.0, whole = min(seconds, 60)
        while whole >= 1 {
            kept *= keep
            whole -= 1
        }
        kept *= 1 - gain * whole  // the fraction of a second left, to first order
        return 1 - kept
    }

    private mutating func restart(_ fix: LocationFix) {
        stillFixes = 0
        outlierRun = 0
        position = (fix.latitude, fix.longitude)
        velocity = (0, 0)
        time = fix.time
        recent.removeAll(keepingCapacity: true)
    }

    /// The newest fix's own direction kind, averaged over the last metres of travel.
    private func smoothedDirection() -> (degrees: Double, isFacing: Bool)? {
        guard let newest = recent.last, newest.direction != nil else { return nil }
        var east = 0.0, north = 0.0, travelled = 0.0, count = 0
        for entry in recent.reversed() {
            guard count < options.courseFixes, entry.isFacing == newest.isFacing, let degrees = entry.direction else { break }
            if count > 0 && travelled >= options.courseDistance { break }
            let radians = degrees * Double.pi / 180
            east += Trigonometry.sin(radians)
            north += Trigonometry.cos(radians)
            travelled += entry.step
            count += 1
        }
        guard east * east + north * north > 1e-12 else { return (newest.direction ?? 0, newest.isFacing) }
        return (Compass.normalised(Trigonometry.atan2(east, north) * 180 / Double.pi), newest.isFacing)
    }

    /// The bearing of steady movement, from the fixes as they came (not smoothed): the window is
    /// cut into three equal parts, and the mean positions of the parts must be at least
    /// ``Options/derivedDistance`` / 3 apart in turn, in directions within 45° of each other; the
    /// bearing is that of the last step. Noise around a walker standing still makes no such steps.
    private func derivedDirection() -> (degrees: Double, isFacing: Bool)? {
        guard let newest = recent.last else { return nil }
        let part = options.derivedWindow / 3
        var sums: [(east: Double, north: Double, count: Int)] = [(0, 0, 0), (0, 0, 0), (0, 0, 0)]
        let plane = LocalPlane(latitude: newest.rawLatitude, longitude: newest.rawLongitude)
        for entry in recent {
            let age = newest.time - entry.time
            guard age >= 0, age < options.derivedWindow else { continue }
            let index = 2 - min(2, Int(age / part))
            let p = plane.project(latitude: entry.rawLatitude, longitude: entry.rawLongitude)
            sums[index].east += p.x
            sums[index].north += p.y
            sums[index].count += 1
        }
        guard sums.allSatisfy({ $0.count >= 2 }) else { return nil }
        let means = sums.map { (east: $0.east / Double($0.count), north: $0.north / Double($0.count)) }
        let first = (east: means[1].east - means[0].east, north: means[1].north - means[0].north)
        let last = (east: means[2].east - means[1].east, north: means[2].north - means[1].north)
        let step = options.derivedDistance / 3
        guard (first.east * first.east + first.north * first.north).squareRoot() >= step,
              (last.east * last.east + last.north * last.north).squareRoot() >= step else { return nil }
        let firstBearing = Trigonometry.atan2(first.east, first.north) * 180 / Double.pi
        let lastBearing = Trigonometry.atan2(last.east, last.north) * 180 / Double.pi
        guard Compass.difference(firstBearing, lastBearing) <= 45 else { return nil }
        return (Compass.normalised(lastBearing), false)
    }
}
