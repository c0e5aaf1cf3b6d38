import Courier
import CourierContract
import CourierTool
import Foundation

/// The benchmark's endpoints, declared like any app's, so that every run goes the full way:
/// enum → URLRequest → transport → validation → decoding.
enum BenchEndPoint: APIConfigurable {
    case small(path: String)
    case posts(path: String)
    case download(path: String)
    case upload(path: String, file: URL)

    var method: HTTPMethod {
        if case .upload = self { return .post }
        return .get
    }

    var path: EndpointPath {
        switch self {
        case .small(let path), .posts(let path), .download(let path), .upload(let path, _): EndpointPath(path)
        }
    }

    var parameters: any ParameterConvertible {
        if case .upload(_, let file) = self { return FileUpload(file: file) }
        return NoParameters()
    }
}

/// The small workload declared the typed way, as `API` and `Endpoint<T>`.
enum BenchAPI: API {
    static func small() -> Endpoint<SmallPayload> { endpoint(.get, "/small.json", "The 1 KiB payload") {} }

    static var samples: [any EndpointDescribing] { [small()] }

    /// The typed declaration has one path; the benchmark's URL must name it.
    static func requireSmallPath(_ path: String) throws {
        guard path == "/small.json" else {
            throw UsageError("the typed workloads request /small.json, not \(path)")
        }
    }
}

/// A request body read from a file as it is sent.
struct FileUpload: ParameterConvertible {
    var file: URL

    func encode(into request: inout TransportRequest) throws {
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw CourierError(.invalidBody, "cannot read \(file.path)")
        }
        request.body = .file(file)
        request.headers.replaceOrAdd(name: "Content-Type", value: "application/octet-stream")
    }
}

/// The ~1 KiB JSON document of the small-request workloads.
struct SmallPayload: Codable, Sendable {
    struct Item: Codable, Sendable {
        var id: Int
        var name: String
        var active: Bool
    }

    var id: String
    var title: String
    var tags: [String]
    var items: [Item]

    static let sample = SmallPayload(
        id: "bench-0001", title: "Courier benchmark payload",
        tags: ["swift", "http", "json", "benchmark"],
        items: (0..<18).map { Item(id: $0, name: "item number \($0)", active: $0 % 2 == 0) })
}
