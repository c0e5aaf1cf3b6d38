import CourierPrimitives

/// A position in a JSON document being read, for errors that say where: `$.interactions[2].request`.
struct DocumentReader {
    let value: JSONValue
    let path: String

    init(_ value: JSONValue, at path: String = "$") {
        self.value = value
        self.path = path
    }

    func member(_ key: String) -> DocumentReader? {
        guard case .object(let members) = value, let member = members[key], member != .null else {
            return nil
        }
        return DocumentReader(member, at: Self.join(path, key))
    }

    func required(_ key: String) throws(PactError) -> DocumentReader {
        guard case .object = value else { throw fault("must be an object, not \(value.typeName)") }
        guard let member = member(key) else {
            throw PactError(path: Self.join(path, key), reason: "is required")
        }
        return member
    }

    func object() throws(PactError) -> [(key: String, reader: DocumentReader)] {
        guard case .object(let members) = value else {
            throw fault("must be an object, not \(value.typeName)")
        }
        return members.sorted { $0.key < $1.key }.map {
            ($0.key, DocumentReader($0.value, at: Self.join(path, $0.key)))
        }
    }

    func array() throws(PactError) -> [DocumentReader] {
        guard case .array(let items) = value else { throw fault("must be an array, not \(value.typeName)") }
        return items.enumerated().map { DocumentReader($0.element, at: "\(path)[\($0.offset)]") }
    }

    func string() throws(PactError) -> String {
        guard case .string(let text) = value else { throw fault("must be a string, not \(value.typeName)") }
        return text
    }

    func int() throws(PactError) -> Int {
        switch value {
        case .int(let number): return Int(number)
        case .double(let number) where number.rounded() == number && abs(number) < 1e15: return Int(number)
        case .string(let text) where Int(text) != nil: return Int(text) ?? 0
        default: throw fault("must be an integer, not \(value.typeName)")
        }
    }

    func fault(_ reason: String) -> PactError {
        PactError(path: path, reason: reason)
    }

    static func join(_ path: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        return plain ? "\(path).\(key)" : "\(path)['\(key)']"
    }
}
