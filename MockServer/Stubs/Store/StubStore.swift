import CourierPrimitives
import Foundation

/// Every stub and scenario state, behind one lock so matching and scenario transitions are atomic.
final class StubStore: Sendable {
    struct State {
        var stubs: [StubMapping] = [] {
            didSet {
                installed = nil
                answersOnLoop = stubs.allSatisfy(\.isCheap)
            }
        }
        /// Whether every stub is cheap to match and answer (see `StubMapping.isCheap`).
        var answersOnLoop = true
        /// `stubs`, each in a box, for matching: a match hands on a reference instead of copying the
        /// stub. Made again at the first match after `stubs` changes.
        var installed: [Installed]?
        var defaults: [StubMapping] = []
        var scenarios: [String: String] = [:] {
            didSet { scenarioVersion &+= 1 }
        }
        /// Changes with every change of `scenarios`.
        var scenarioVersion: UInt64 = 0
        var nextSequence = 0
        var settings = Settings()
    }

    /// `/__admin/settings`: a delay added to every stubbed response.
    struct Settings: Sendable {
        /// Applied to stubs that have no `fixedDelayMilliseconds` of their own.
        var fixedDelay: Double?
        /// Sampled for every stubbed response, on top of the fixed delay.
        var delayDistribution: ResponseDefinition.DelayDistribution?
        /// The settings as last posted.
        var json: JSONValue = .object([:])
    }

    var settings: Settings {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    /// An installed stub, shared by reference with the requests it answers.
    final class Installed: Sendable {
        let stub: StubMapping
        /// The stub's id and pattern, read on every match without copying the whole stub.
        let id: String
        let request: RequestPattern
        /// The response of a stub that answers on an event loop and whose response is the same on every
        /// request (no delay distribution to sample); nil otherwise, and the response is made per request.
        let fixedAnswer: ServerResponse?
        /// Whether the stub sets its own fixed delay (then the global fixed delay does not apply).
        let hasOwnFixedDelay: Bool

        init(_ stub: StubMapping, filesDirectory: URL?) {
            self.stub = stub
            self.id = stub.id
            self.request = stub.request
            self.hasOwnFixedDelay = stub.response.fixedDelayMilliseconds != 0
            self.fixedAnswer =
                stub.isCheap && stub.response.delayDistribution == nil
                ? stub.response.makeResponse(filesDirectory: filesDirectory) : nil
        }

        /// The stub's response to one request.
        func answer(filesDirectory: URL?) -> ServerResponse {
            fixedAnswer ?? stub.response.makeResponse(filesDirectory: filesDirectory)
        }
    }

    /// What an event loop needs to answer a request from a stub: the stub, and the global delays.
    struct LoopMatch {
        var installed: Installed
        var fixedDelay: Double?
        var delayDistribution: ResponseDefinition.DelayDistribution?
    }

    /// The outcome of matching a request against the stubs.
    enum MatchResult {
        case matched(Installed)
        case unmatched(closest: StubMapping?, differences: [RequestPattern.Mismatch])
    }

    let filesDirectory: URL?
    /// Whether every response is a template (mappings are read with this).
    let globalTemplating: Bool
    private let state = Locked(State())
    /// Called before each stub is weighed for near misses; tests use it to see what the other loops can
    /// do meanwhile.
    let nearMissProbe = Locked<(@Sendable () -> Void)?>(nil)

    init(filesDirectory: URL?, defaults: [StubMapping] = [], globalTemplating: Bool = false) {
        self.filesDirectory = filesDirectory
        self.globalTemplating = globalTemplating
        installDefaults(defaults)
    }

    /// Where `bodyFileName` is read from: the mappings root's `__files`, or `./__files` without one.
    var bodyFilesDirectory: URL { filesDirectory ?? MappingLoader.defaultFilesDirectory }

    private func insert(_ stub: StubMapping, into state: inout State) {
        var stub = stub
        // Read with the files folder, a stub has its file already; this is for one read without it.
        if case .file(let name) = stub.response.body, stub.response.resolvedFile == nil {
            stub.response.resolvedFile = bodyFilesDirectory.appendingPathComponent(name)
        }
        stub.response.prepare()
        state.nextSequence += 1
        stub.sequence = state.nextSequence
        // An edited stub keeps the file it came from, to be saved back there.
        if stub.sourceFile == nil { stub.sourceFile = state.stubs.first { $0.id == stub.id }?.sourceFile }
        state.stubs.removeAll { $0.id == stub.id }
        // Priority 1 first; among equal priorities the newest first.
        let index =
            state.stubs.firstIndex {
                $0.priority > stub.priority || ($0.priority == stub.priority && $0.sequence < stub.sequence)
            }
            ?? state.stubs.count
        state.stubs.insert(stub, at: index)
        if let scenario = stub.scenarioName, state.scenarios[scenario] == nil {
            state.scenarios[scenario] = StubMapping.startedState
        }
    }

    var isEmpty: Bool { state.withLock { $0.stubs.isEmpty } }

    /// Finds the stub for a request, applying its scenario transition; or the closest stub and what differed.
    ///
    /// The patterns are evaluated on a snapshot, outside the lock, so that one slow match (a
    /// large body against many stubs) does not hold up every other request. The scenario
    /// transition is made under the lock, and only if no scenario changed since the snapshot;
    /// otherwise the match is run again on the new state. A match that moves no scenario is the
    /// answer of the snapshot's state, and takes the lock once.
    func match(_ view: RequestView) -> MatchResult {
        while true {
            let (stubs, scenarios, version) = state.withLock { state in
                let installed = installedStubs(&state)
                return (installed, state.scenarios, state.scenarioVersion)
            }
            var found: Installed?
            for candidate in stubs {
                if let scenario = candidate.stub.scenarioName,
                    let required = candidate.stub.requiredScenarioState,
                    scenarios[scenario, default: StubMapping.startedState] != required
                {
                    continue
                }
                guard candidate.request.matches(view) else { continue }
                found = candidate
                break
            }
            guard let found, let scenario = found.stub.scenarioName, let next = found.stub.newScenarioState
            else {
                return found.map { .matched($0) } ?? .unmatched(closest: nil, differences: [])
            }
            let committed = state.withLock { state -> Bool in
                guard state.scenarioVersion == version else { return false }
                state.scenarios[scenario] = next
                return true
            }
            guard committed else { continue }
            return .matched(found)
        }
    }

    /// The boxed stubs, made again after a change of `stubs`.
    private func installedStubs(_ state: inout State) -> [Installed] {
        if let installed = state.installed { return installed }
        let installed = state.stubs.map { Installed($0, filesDirectory: filesDirectory) }
        state.installed = installed
        return installed
    }

    /// The stub that answers `view` when every stub answers on an event loop (see ``answersOnLoop``),
    /// with the global delays, all read under the lock once; nil when a stub does not answer on a loop,
    /// or when none matches. Such stubs have no scenario, so matching moves none.
    func matchOnLoop(_ view: RequestView) -> LoopMatch? {
        let snapshot = state.withLock {
            state -> ([Installed], Double?, ResponseDefinition.DelayDistribution?)? in
            guard state.answersOnLoop else { return nil }
            return (installedStubs(&state), state.settings.fixedDelay, state.settings.delayDistribution)
        }
        guard let (stubs, fixedDelay, delayDistribution) = snapshot,
            let found = stubs.first(where: { $0.request.matches(view) })
        else { return nil }
        return LoopMatch(installed: found, fixedDelay: fixedDelay, delayDistribution: delayDistribution)
    }

    /// One stub that did not match a request, how far it was (0 to 1) and what differed.
    struct NearMiss {
        var stub: StubMapping
        var differences: [RequestPattern.Mismatch]
        var distance: Double
    }

    /// The stub closest to matching the request (smallest weighted difference) and what differed.
    func closestMatch(_ view: RequestView) -> MatchResult {
        guard let best = nearMisses(view, limit: 1).first else {
            return .unmatched(closest: nil, differences: [])
        }
        return .unmatched(closest: best.stub, differences: best.differences)
    }

    /// The `limit` stubs nearest to matching the request, nearest first (stubs that match are left out).
    ///
    /// They are weighed on a snapshot of the stubs and scenario states, outside the lock: weighing
    /// compares bodies and edit distances against every stub, and the other loops' matching must not
    /// wait for it.
    func nearMisses(_ view: RequestView, limit: Int) -> [NearMiss] {
        let (stubs, scenarios) = state.withLock { ($0.stubs, $0.scenarios) }
        let probe = nearMissProbe.withLock { $0 }
        // The URL weighs most, then the method, then each other field; a scenario state least: a stub
        // that fits the request but waits for another state is the better explanation. Every stub is
        // weighed, and only the nearest `limit` are described.
        func waitsForState(_ stub: StubMapping) -> (scenario: String, required: String, current: String)? {
            guard let scenario = stub.scenarioName, let required = stub.requiredScenarioState else {
                return nil
            }
            let current = scenarios[scenario, default: StubMapping.startedState]
            return current == required ? nil : (scenario, required, current)
        }
        var weighed: [(stub: StubMapping, score: Int, order: Int)] = []
        for (order, stub) in stubs.enumerated() {
            probe?()
            let score = stub.request.mismatchWeight(view) + (waitsForState(stub) == nil ? 0 : 1)
            if score > 0 { weighed.append((stub, score, order)) }
        }
        weighed.sort { ($0.score, $0.order) < ($1.score, $1.order) }
        return weighed.prefix(limit).map { stub, score, _ in
            var differences = stub.request.mismatches(view)
            if let (scenario, required, current) = waitsForState(stub) {
                differences.append(
                    RequestPattern.Mismatch(
                        field: "scenario \(scenario)", detail: "requires state \(required) but is \(current)",
                        weight: 1))
            }
            let distance = min(1, Double(score) / Double(stub.request.totalWeight + 1))
            return NearMiss(stub: stub, differences: differences, distance: distance)
        }
    }

    /// Whether matching the stubs and answering from them is cheap enough for an event loop: every stub
    /// is matched by text alone, has no scenario and answers a prepared, static response.
    var answersOnLoop: Bool { state.withLock { $0.answersOnLoop } }

    /// Whether the stubs' lock is free now (for tests of what runs outside it).
    var isUnlocked: Bool { state.withLockIfAvailable { _ in true } ?? false }

    /// Replaces the stubs that `reset` returns to (those loaded from files), and installs them.
    func installDefaults(_ stubs: [StubMapping]) {
        state.withLock { state in
            state.stubs.removeAll()
            for stub in stubs { insert(stub, into: &state) }
            state.defaults = state.stubs
        }
    }

    var all: [StubMapping] { state.withLock { $0.stubs } }

    func stub(id: String) -> StubMapping? { state.withLock { state in state.stubs.first { $0.id == id } } }

    func add(_ stub: StubMapping) {
        state.withLock { insert(stub, into: &$0) }
    }

    /// Replaces the stub with `id`; false when there is none.
    func replace(id: String, with stub: StubMapping) -> Bool {
        state.withLock { state in
            guard let old = state.stubs.first(where: { $0.id == id }) else { return false }
            var stub = stub
            // An edited stub keeps the file it came from, to be saved back there.
            if stub.sourceFile == nil { stub.sourceFile = old.sourceFile }
            state.stubs.removeAll { $0.id == id }
            insert(stub, into: &state)
            return true
        }
    }

    /// Removes the stub with `id`; false when there is none.
    func remove(id: String) -> Bool {
        state.withLock { state in
            let before = state.stubs.count
            state.stubs.removeAll { $0.id == id }
            return state.stubs.count != before
        }
    }

    /// Removes every stub for which `shouldRemove` is true; returns how many.
    @discardableResult
    func removeAll(where shouldRemove: (StubMapping) -> Bool) -> Int {
        state.withLock { state in
            let before = state.stubs.count
            state.stubs.removeAll(where: shouldRemove)
            return before - state.stubs.count
        }
    }

    /// Marks the stubs with these ids as saved to the mappings folder.
    /// Marks stubs saved, each in its file.
    func markPersisted(_ files: [String: URL]) {
        state.withLock { state in
            for index in state.stubs.indices {
                guard let file = files[state.stubs[index].id] else { continue }
                state.stubs[index].isPersisted = true
                state.stubs[index].sourceFile = file
            }
        }
    }

    func removeAll() {
        state.withLock { $0.stubs.removeAll() }
    }

    /// Back to the stubs loaded from files, with every scenario at `Started`.
    func resetToDefaults() {
        state.withLock { state in
            state.stubs = state.defaults
            state.scenarios = [:]
            for stub in state.stubs {
                if let scenario = stub.scenarioName { state.scenarios[scenario] = StubMapping.startedState }
            }
        }
    }

    /// Imports stubs; existing ids are overwritten unless `ignoreExisting`.
    func importStubs(_ stubs: [StubMapping], ignoreExisting: Bool, deleteOthers: Bool) {
        state.withLock { state in
            if deleteOthers {
                let keep = Set(stubs.map(\.id))
                state.stubs.removeAll { !keep.contains($0.id) }
            }
            for stub in stubs {
                if ignoreExisting && state.stubs.contains(where: { $0.id == stub.id }) { continue }
                insert(stub, into: &state)
            }
        }
    }

    /// Every scenario with its state and the states its stubs mention.
    func scenarios() -> [(name: String, state: String, possibleStates: [String])] {
        state.withLock { state in
            var names = Set(state.scenarios.keys)
            for stub in state.stubs { if let scenario = stub.scenarioName { names.insert(scenario) } }
            return names.sorted().map { name in
                var possible = [StubMapping.startedState]
                for stub in state.stubs where stub.scenarioName == name {
                    for candidate in [stub.requiredScenarioState, stub.newScenarioState].compactMap({ $0 })
                    where !possible.contains(candidate) {
                        possible.append(candidate)
                    }
                }
                return (name, state.scenarios[name, default: StubMapping.startedState], possible)
            }
        }
    }

    func resetScenarios() {
        state.withLock { state in
            for key in state.scenarios.keys { state.scenarios[key] = StubMapping.startedState }
        }
    }

    /// Sets a scenario's state; false when no such scenario exists.
    func setScenario(_ name: String, to newState: String) -> Bool {
        state.withLock { state in
            let known = state.scenarios[name] != nil || state.stubs.contains { $0.scenarioName == name }
            guard known else { return false }
            state.scenarios[name] = newState
            return true
        }
    }
}
