import CourierPrimitives
import Foundation

/// The handler chain: admin API → stubs → chaos → the given handlers → a 404 naming the closest stub.
final class RequestRouter: Sendable {
    let store: StubStore
    let journal: RequestJournal
    let recorder: Recorder
    let admin: AdminAPI
    let chaos: ChaosInjector?
    let handlers: [any HTTPHandler]
    let proxy: ProxyForwarder
    let observer: (@Sendable (ServerRequest, ServerResponse) -> Void)?
    /// Where what goes wrong inside the server is reported.
    let log: @Sendable (String) -> Void
    /// What `POST /__admin/shutdown` calls; set by the server once it exists.
    let shutdownHook = Locked<(@Sendable () -> Void)?>(nil)

    init(configuration: MockServerConfiguration, store: StubStore, handlers: [any HTTPHandler]) {
        self.store = store
        self.journal = RequestJournal(limit: configuration.journalLimit)
        let recorder = Recorder(limit: configuration.journalLimit)
        self.recorder = recorder
        var admin = AdminAPI(store: store, journal: journal, recorder: recorder)
        admin.mappingsRoot = configuration.mappingsDirectory
        admin.bindHost = configuration.host
        let hook = shutdownHook
        admin.requestShutdown = { hook.withLock { $0 }?() }
        self.admin = admin
        self.chaos =
            configuration.chaosRate > 0
            ? ChaosInjector(rate: configuration.chaosRate, seed: configuration.chaosSeed) : nil
        self.handlers = handlers
        self.observer = configuration.exchangeObserver
        self.log = configuration.log
        self.proxy = ProxyForwarder(
            client: configuration.proxyClient ?? DefaultProxyClient(), timeout: configuration.proxyTimeout,
            maxResponseBytes: configuration.proxyMaxResponseBytes)
    }

    static func isAdmin(_ path: String) -> Bool {
        path == AdminAPI.prefix || path.hasPrefix(AdminAPI.prefix + "/")
    }

    func respond(to request: ServerRequest) -> ServerResponse {
        respondReportingMatch(to: request).response
    }

    /// The response, and whether a stub, a handler or the admin API answered (false for the 404).
    func respondReportingMatch(to request: ServerRequest) -> (response: ServerResponse, matched: Bool) {
        if Self.isAdmin(request.path) { return (admin.handle(request), true) }
        if let target = recorder.target {
            return (forward(request, ProxySettings(baseURL: target), stubID: nil, recorded: true), true)
        }
        let view = RequestView(request)
        var wasMatched = true
        var stubID: String?
        var response: ServerResponse
        if let refused = handlers.lazy.compactMap({ $0.gate(request) }).first {
            response = refused
        } else if let problem = Self.unreadableBody(request) {
            // Matched as an empty body, it would get another request's answer.
            log("\(request.method) \(request.target): \(problem)")
            response = .text(problem + "\n", status: 500)
        } else if case .matched(let installed) = store.match(view) {
            stubID = installed.stub.id
            if let settings = installed.stub.response.proxy {
                return (forward(request, settings, stubID: installed.stub.id, recorded: false), true)
            }
            if let templated = installed.stub.response.templated {
                response = TemplatedResponse.response(
                    for: installed.stub, templated, view: view, filesDirectory: store.filesDirectory)
            } else {
                response = installed.answer(filesDirectory: store.filesDirectory)
            }
            applyGlobalDelay(to: &response, stub: installed.stub)
        } else if let injected = chaos?.apply(next: { runHandlers(request) ?? notFound(view) }) {
            response = injected
        } else if let handled = runHandlers(request) {
            response = handled
        } else {
            wasMatched = false
            response = notFound(view)
        }
        journal.record(request, wasMatched: wasMatched, stubID: stubID, status: response.status)
        observer?(request, response)
        return (response, wasMatched)
    }

    /// Why a request's body, spilled to disk, cannot be read back; nil when it can or was never spilled.
    static func unreadableBody(_ request: ServerRequest) -> String? {
        guard let file = request.bodyFile else { return nil }
        do {
            let handle = try FileHandle(forReadingFrom: file)
            try handle.close()
            return nil
        } catch {
            return "the request body spilled to disk could not be read (\(file.lastPathComponent)): "
                + error.localizedDescription
        }
    }

    /// The answer when making it on the event loop costs no more than moving its bytes: a cheap stub
    /// (see `StubStore.answersOnLoop`) matched when no handler, chaos or recording is in the way. Nil for
    /// everything else (an unmatched request's near misses included), which a handler thread answers
    /// with ``respond(to:)``.
    func respondOnLoop(_ request: ServerRequest) -> ServerResponse? {
        guard handlers.isEmpty, chaos == nil, recorder.target == nil, !Self.isAdmin(request.path),
            let match = store.matchOnLoop(RequestView(request))
        else { return nil }
        let installed = match.installed
        var response = installed.answer(filesDirectory: store.filesDirectory)
        Self.applyGlobalDelay(
            to: &response, ownFixedDelay: installed.hasOwnFixedDelay, fixedDelay: match.fixedDelay,
            distribution: match.delayDistribution)
        journal.record(request, wasMatched: true, stubID: installed.id, status: response.status)
        observer?(request, response)
        return response
    }

    /// Proxies `request`; the journal and the recorder see the exchange once the upstream has answered.
    private func forward(_ request: ServerRequest, _ settings: ProxySettings, stubID: String?, recorded: Bool)
        -> ServerResponse
    {
        let journal = journal
        let recorder = recorder
        return proxy.forward(request, settings) { response, sent, answer in
            // A spilled body file is gone by now; the body as sent upstream was read before it went.
            var request = request
            request.body = sent.body
            request.bodyFile = nil
            journal.record(request, wasMatched: true, stubID: stubID, status: response.status)
            if let answer {
                recorder.capture(Recorder.Exchange(request: request, response: answer), recorded: recorded)
            }
        }
    }

    /// The `/__admin/settings` delays: the fixed one for stubs without their own, the distribution always.
    private func applyGlobalDelay(to response: inout ServerResponse, stub: StubMapping) {
        let settings = store.settings
        Self.applyGlobalDelay(
            to: &response, ownFixedDelay: stub.response.fixedDelayMilliseconds != 0,
            fixedDelay: settings.fixedDelay, distribution: settings.delayDistribution)
    }

    private static func applyGlobalDelay(
        to response: inout ServerResponse, ownFixedDelay: Bool, fixedDelay: Double?,
        distribution: ResponseDefinition.DelayDistribution?
    ) {
        var extra: Double = 0
        if let fixed = fixedDelay, !ownFixedDelay { extra += fixed }
        if let distribution {
            var generator = SystemRandomNumberGenerator()
            extra += ResponseDefinition.sample(distribution, using: &generator)
        }
        guard extra > 0 else { return }
        response.delay =
            (response.delay ?? .zero) + .milliseconds(min(extra, 2 * ResponseDefinition.maxDelayMilliseconds))
    }

    private func runHandlers(_ request: ServerRequest) -> ServerResponse? {
        for handler in handlers {
            if let response = handler.handle(request) { return response }
        }
        return nil
    }

    /// A 404 whose body names the closest stub and what differed.
    private func notFound(_ view: RequestView) -> ServerResponse {
        let request = view.request
        var text = "No stub or handler matched \(request.method) \(request.target)\n"
        if case .unmatched(let closest?, let differences) = store.closestMatch(view) {
            text += "\nClosest stub: \(closest.label)\n"
            for difference in differences { text += "  - \(difference.field): \(difference.detail)\n" }
        } else {
            text += "(there are no stubs)\n"
        }
        return .text(text, status: 404)
    }
}
