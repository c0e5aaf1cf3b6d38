import CourierPrimitives
import Foundation

extension AdminAPI {
    /// `/__admin/recordings/start`, `/stop`, `/status` and `/snapshot`.
    func recordings(_ request: ServerRequest, _ rest: [String]) -> ServerResponse {
        switch (request.method, rest.first ?? "") {
        case ("GET", "status") where rest.count == 1:
            return AdminJSON.response(.object(["status": .string(recorder.status.rawValue)]))
        case ("POST", "start") where rest.count == 1:
            let spec: RecordSpec
            switch parseSpec(request, requireTarget: true) {
            case .failure(let response): return response
            case .success(let parsed): spec = parsed
            }
            guard recorder.start(spec) else {
                return AdminJSON.error("a recording is already running", status: 409)
            }
            return AdminJSON.response(.object([:]))
        case ("POST", "stop") where rest.count == 1:
            guard let (spec, exchanges, dropped) = recorder.stop() else {
                return AdminJSON.error("no recording is running", status: 409)
            }
            return install(exchanges, spec, dropped: dropped)
        case ("POST", "snapshot") where rest.count == 1:
            let spec: RecordSpec
            switch parseSpec(request, requireTarget: false) {
            case .failure(let response): return response
            case .success(let parsed): spec = parsed
            }
            return install(recorder.proxiedExchanges, spec)
        default:
            return AdminJSON.error("no admin route \(request.method) \(request.path)", status: 404)
        }
    }

    private func parseSpec(_ request: ServerRequest, requireTarget: Bool) -> AdminResult<RecordSpec> {
        let body = (try? request.bodyData()) ?? Data()
        let json: JSONValue
        if body.isEmpty {
            json = .object([:])
        } else {
            switch parseBody(request) {
            case .failure(let response): return .failure(response)
            case .success(let parsed): json = parsed
            }
        }
        do {
            return .success(try RecordSpec.parse(json, requireTarget: requireTarget))
        } catch {
            return .failure(AdminJSON.error("\(error)", status: 422))
        }
    }

    /// Answers with the stubs made of the exchanges (see ``installRecorded(_:_:)``).
    /// Installs the stubs of `exchanges`; the answer says how many exchanges a recording left out
    /// (`droppedExchanges`) when it had to.
    private func install(_ exchanges: [Recorder.Exchange], _ spec: RecordSpec, dropped: Int = 0)
        -> ServerResponse
    {
        do {
            let stubs = try installRecorded(exchanges, spec)
            var members: [String: JSONValue] =
                spec.idsOnly
                ? ["ids": .array(stubs.map { .string($0.id) })] : ["mappings": .array(stubs.map(\.source))]
            if dropped > 0 { members["droppedExchanges"] = .int(Int64(dropped)) }
            return AdminJSON.response(.object(members))
        } catch {
            return AdminJSON.error("cannot keep the recorded stubs: \(error)", status: 500)
        }
    }

    /// Makes stubs of the exchanges, adds them, and saves them with their body files to the mappings folder
    /// when the spec persists and the server has a folder.
    /// - Throws: the file system's error, or ``ValuePattern/InvalidMapping`` (a bug: recorded stubs are valid).
    func installRecorded(_ exchanges: [Recorder.Exchange], _ spec: RecordSpec) throws -> [StubMapping] {
        let persist = spec.persist && mappingsRoot != nil
        let recorded = Recorder.stubs(from: exchanges, spec: spec, extractBodies: persist)
        if persist, let mappingsRoot {
            let files = MappingLoader.layout(of: mappingsRoot).files
            if recorded.contains(where: { $0.bodyFile != nil }) {
                try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            }
            for case let (name, data)? in recorded.map(\.bodyFile) {
                try data.write(to: files.appendingPathComponent(name), options: .atomic)
            }
        }
        let stubs = try recorded.map {
            try StubMapping(
                json: $0.mapping, location: "recorded", globalTemplating: store.globalTemplating,
                filesDirectory: store.bodyFilesDirectory)
        }
        var saved: [String: URL] = [:]
        if persist, let mappingsRoot {
            saved = try MappingLoader.save(stubs, all: stubs, to: mappingsRoot)
        }
        for stub in stubs { store.add(stub) }
        if persist { store.markPersisted(saved) }
        return stubs
    }
}
