import Courier
import CourierOpenAPI
import CourierPrimitives
import Foundation

/// The cases `DocumentVerification` sends for one operation of a document: its sample, then each error
/// status the operation declares that a request can provoke.
struct DocumentCases {
    /// A case, or why the operation's sample could not be made.
    struct Plan {
        var name: String
        var planned: PlannedCase?
        var problem: String?
    }

    let document: OpenAPIDocument
    let operation: OpenAPIOperation
    let seed: UInt64
    let token: String?

    private var validator: SchemaValidator { SchemaValidator(document: document) }

    /// The statuses declared explicitly (`404`, or its range `4XX`).
    private func declares(_ status: Int) -> Bool {
        operation.responses[String(status)] != nil || operation.responses["\(status / 100)XX"] != nil
    }

    /// The declared success statuses; every 2xx when only a range or `default` says so.
    private var success: Set<Int> {
        let declared = Set(operation.responses.keys.compactMap(Int.init).filter { (200...299).contains($0) })
        return declared.isEmpty ? Set(200...299) : declared
    }

    func all(baseURL: URL) -> [Plan] {
        let sample: SampleRequest
        do {
            sample = try SampleRequest(cases: self)
        } catch {
            return [Plan(name: "sample", problem: "cannot be built: \(error)")]
        }
        let needsToken =
            sample.needsCredentials && token == nil ? "needs a token: --token or COURIER_TOKEN" : nil
        var plans: [Plan] = []
        func add(_ name: String, _ request: TransportRequest?, _ expected: Set<Int>, needsData: Bool = false)
        {
            guard let request else { return }
            plans.append(
                Plan(
                    name: name,
                    planned: PlannedCase(
                        name: name, request: request, expected: expected, skipped: needsToken,
                        needsData: needsData)))
        }
        guard let request = sample.request(baseURL: baseURL, token: token) else {
            return [Plan(name: "sample", problem: "cannot be built: a parameter cannot be put in the URL")]
        }
        add("sample", request, success)
        if sample.needsCredentials, declares(401), let request = sample.request(baseURL: baseURL, token: nil)
        {
            plans.append(
                Plan(
                    name: "no token",
                    planned: PlannedCase(name: "no token", request: request, expected: [401])))
        }
        if declares(404), let unknown = sample.withUnknownIDs(validator) {
            add("unknown id", unknown.request(baseURL: baseURL, token: token), [404], needsData: true)
        }
        let refusals = Set([400, 422].filter(declares))
        if !refusals.isEmpty {
            if let bad = sample.withBadBody(validator) {
                add("bad body", bad.request(baseURL: baseURL, token: token), refusals)
            }
            if let bad = sample.withBadParameter(document) {
                add("bad parameter", bad.request(baseURL: baseURL, token: token), refusals)
            }
        }
        return plans
    }

    /// A value for `schema`: the example it carries, else one generated from it.
    func value(_ schema: JSONValue?, example: JSONValue?, salt: String) throws -> JSONValue {
        if let example { return example }
        guard let schema else { return .string("x") }
        var hash: UInt64 = seed
        for byte in salt.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 }
        return try SchemaValueGenerator(document: document).value(
            for: schema, seed: hash, direction: .request)
    }

    /// The example a parameter or media type object carries (`example`, or the first of `examples`).
    static func example(_ object: JSONValue) -> JSONValue? {
        if let example = object["example"] { return example }
        guard case .object(let examples) = object["examples"] ?? .null,
            let first = examples.keys.sorted().first
        else { return nil }
        return examples[first]?["value"]
    }
}
