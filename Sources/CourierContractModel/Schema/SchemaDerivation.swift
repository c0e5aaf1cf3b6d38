import Courier
import CourierPrimitives
import Foundation

/// Refines the schema derived from a model's `Codable` conformance: bounds, formats and
/// patterns that the Swift types alone do not say.
///
/// ```swift
/// struct Credentials: Codable, SchemaDescribing {
///     var email: String
///     var password: String
///     static let propertySchemas: [String: Schema] = ["email": .email, "password": .text(6, 128)]
/// }
/// ```
public protocol SchemaDescribing {
    /// Schemas that replace the derived ones, by coding key. A key the model does not decode
    /// is ignored.
    static var propertySchemas: [String: Schema] { get }
}

/// A type decoded from one of several schemas (JSON Schema's `anyOf` or `oneOf`), such as an enum
/// with a case per branch whose initializer tries each branch in turn. Its derived schema lists
/// every branch, where recording its initializer would see only the first one it asks for.
///
/// ```swift
/// struct Card: Codable { var number: String }
/// struct BankAccount: Codable { var iban: String }
///
/// enum PaymentSource: Codable, SchemaAlternatives {
///     case card(Card)
///     case bankAccount(BankAccount)
///     static var alternativeTypes: [any Decodable.Type] { [Card.self, BankAccount.self] }
/// }
/// ```
public protocol SchemaAlternatives {
    /// The types of the branches, in the order they are tried.
    static var alternativeTypes: [any Decodable.Type] { get }
    /// Whether a value matches exactly one branch (`oneOf`) rather than at least one (`anyOf`).
    /// Default: false.
    static var exclusiveAlternatives: Bool { get }
}

extension SchemaAlternatives {
    public static var exclusiveAlternatives: Bool { false }
}

extension Schema {
    /// The schema of `type`, found by recording what its `init(from:)` asks of a decoder:
    /// which keys, of which types, required (`decode`) or optional (`decodeIfPresent`).
    ///
    /// A struct or class decoded from a keyed container becomes a named model
    /// (`.model(name, .object(...))`); `Date` is a date-time string, `URL` a URI, `UUID` a
    /// UUID string, `Data` a base64 string, a `CaseIterable` string enum an enumeration,
    /// and `JSONValue` any value. `SchemaDescribing` adds what the types do not say.
    ///
    /// A model whose `init(from:)` throws on the placeholder values the recorder hands out (a
    /// string enum that is not `CaseIterable`, a validating initializer) is described as far
    /// as its initializer got.
    public static func of<T: Decodable>(_ type: T.Type) -> Schema {
        SchemaRecorder().schema(of: type)
    }
}

/// Runs `init(from:)` against recording containers and builds schemas from what was asked.
final class SchemaRecorder {
    /// Models being described, for recursion: a model met again inside itself is a `.ref`.
    private var inProgress: Set<ObjectIdentifier> = []

    struct Recursion: Error {}

    /// The schema of `type`, as far as its initializer got: never a `.ref` to a model that
    /// was not described (which OpenAPI would list with no component behind it).
    func schema<T: Decodable>(of type: T.Type) -> Schema {
        (try? describe(type))?.schema ?? .any
    }

    /// The schema of `type` and a placeholder value of it.
    func record<T: Decodable>(_ type: T.Type) throws -> (schema: Schema, value: T) {
        if let special = Self.special(type) { return special }
        if let enumeration = Self.enumeration(type) { return enumeration }
        let key = ObjectIdentifier(type)
        guard !inProgress.contains(key) else { throw Recursion() }
        inProgress.insert(key)
        defer { inProgress.remove(key) }
        let decoder = RecordingDecoder(recorder: self)
        let value: T
        do {
            value = try T(from: decoder)
        } catch {
            throw Partial(schema: finish(decoder.shape, type: type))
        }
        if let alternatives = type as? any SchemaAlternatives.Type {
            // Each branch is described by this recorder, so a branch that holds this type refers to it.
            let branches = alternatives.alternativeTypes.map { branch in
                (try? describe(branch))?.schema ?? .any  // allowed: recursion and partial shapes are schemas
            }
            let schema: Schema = alternatives.exclusiveAlternatives ? .oneOf(branches) : .anyOf(branches)
            return (.model(Self.name(of: type), schema), value)
        }
        return (finish(decoder.shape, type: type), value)
    }

    /// A failure after part of the shape was recorded.
    struct Partial: Error {
        var schema: Schema
    }

    /// The schema for a type, tolerating an initializer that fails part way.
    func describe<T: Decodable>(_ type: T.Type) throws -> (schema: Schema, value: T?) {
        do {
            let (schema, value) = try record(type)
            return (schema, value)
        } catch let partial as Partial {
            return (partial.schema, nil)
        } catch is Recursion {
            return (.ref(Self.name(of: type)), nil)
        }
    }

    private func finish<T>(_ shape: RecordingDecoder.Shape, type: T.Type) -> Schema {
        switch shape {
        case .none: return .any
        case .single(let schema): return schema
        case .unkeyed(let item): return .array(item ?? .any)
        case .keyed(let keyed):
            if keyed.isMap { return .map(keyed.properties.first?.schema ?? .any) }
            let overrides = (type as? any SchemaDescribing.Type)?.propertySchemas ?? [:]
            let properties = keyed.properties.map { property in
                Schema.Property(property.name, overrides[property.name] ?? property.schema)
            }
            return .model(Self.name(of: type), .object(properties, required: keyed.required))
        }
    }

    /// A component name OpenAPI accepts: `Page<Note>` becomes `Page_Note`.
    static func name<T>(of type: T.Type) -> String {
        let raw = String(describing: type)
        var result = ""
        for character in raw {
            if character.isLetter || character.isNumber || character == "." || character == "_" {
                result.append(character)
            } else if result.last != "_" {
                result.append("_")
            }
        }
        while result.last == "_" { result.removeLast() }
        return result
    }

    private static func special<T>(_ type: T.Type) -> (schema: Schema, value: T)? {
        func make(_ schema: Schema, _ value: Any) -> (Schema, T)? {
            (value as? T).map { (schema, $0) }
        }
        switch type {
        case is String.Type: return make(.anyString, "")
        case is Bool.Type: return make(.boolean, false)
        case is Int.Type: return make(.integer(), 0)
        case is Int8.Type: return make(.integer(minimum: Int(Int8.min), maximum: Int(Int8.max)), Int8(0))
        case is Int16.Type: return make(.integer(minimum: Int(Int16.min), maximum: Int(Int16.max)), Int16(0))
        case is Int32.Type: return make(.integer(minimum: Int(Int32.min), maximum: Int(Int32.max)), Int32(0))
        case is Int64.Type: return make(.integer(), Int64(0))
        case is UInt.Type: return make(.integer(minimum: 0), UInt(0))
        case is UInt8.Type: return make(.integer(minimum: 0, maximum: Int(UInt8.max)), UInt8(0))
        case is UInt16.Type: return make(.integer(minimum: 0, maximum: Int(UInt16.max)), UInt16(0))
        case is UInt32.Type: return make(.integer(minimum: 0, maximum: Int(UInt32.max)), UInt32(0))
        case is UInt64.Type: return make(.integer(minimum: 0), UInt64(0))
        case is Double.Type: return make(.number(), 0.0)
        case is Float.Type: return make(.number(), Float(0))
        case is Decimal.Type: return make(.number(), Decimal(0))
        case is Date.Type: return make(.dateTime, Date(timeIntervalSince1970: 0))
        case is URL.Type: return make(.uri, URL(string: "https://example.com")!)  // a valid literal
        case is UUID.Type: return make(.string(Schema.StringRules(format: "uuid")), UUID())
        case is Data.Type: return make(.string(Schema.StringRules(format: "byte")), Data())
        case is JSONValue.Type: return make(.any, JSONValue.null)
        default: return nil
        }
    }

    private static func enumeration<T>(_ type: T.Type) -> (schema: Schema, value: T)? {
        guard let cases = type as? any (CaseIterable & RawRepresentable<String>).Type else { return nil }
        return enumerationValues(cases).flatMap { values, first in
            (first as? T).map { (.enumeration(values), $0) }
        }
    }

    private static func enumerationValues<E: CaseIterable & RawRepresentable<String>>(_ type: E.Type)
        -> ([String], E)?
    {
        guard let first = type.allCases.first else { return nil }
        return (type.allCases.map(\.rawValue), first)
    }
}

/// A decoder that hands out placeholder values and remembers what was asked.
final class RecordingDecoder: Decoder {
    enum Shape {
        case none
        case single(Schema)
        case unkeyed(Schema?)
        case keyed(Keyed)
    }

    struct Keyed {
        var properties: [(name: String, schema: Schema)] = []
        var required: [String] = []
        var isMap = false

        mutating func add(_ name: String, _ schema: Schema, required isRequired: Bool) {
            guard !properties.contains(where: { $0.name == name }) else { return }
            properties.append((name, schema))
            if isRequired { required.append(name) }
        }
    }

    let recorder: SchemaRecorder
    var shape = Shape.none
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(recorder: SchemaRecorder) { self.recorder = recorder }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if case .keyed = shape {} else { shape = .keyed(Keyed()) }
        return KeyedDecodingContainer(KeyedRecorder<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        UnkeyedRecorder(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleRecorder(decoder: self)
    }

    /// Records a value of `type` and returns a placeholder for it.
    func value<T: Decodable>(_ type: T.Type, record: (Schema) -> Void) throws -> T {
        let (schema, value) = try recorder.describe(type)
        record(schema)
        guard let value else {
            // An array of a model met inside itself (`replies: [Comment]`) has no placeholder
            // element, but an empty array lets the rest of the initializer be recorded.
            if let empty = (type as? any RangeReplaceableCollection.Type)?.init() as? T { return empty }
            throw SchemaRecorder.Partial(schema: schema)
        }
        return value
    }

    func addProperty(_ name: String, _ schema: Schema, required: Bool) {
        guard case .keyed(var keyed) = shape else { return }
        keyed.add(name, schema, required: required)
        shape = .keyed(keyed)
    }

    func markMap() {
        guard case .keyed(var keyed) = shape else { return }
        keyed.isMap = true
        shape = .keyed(keyed)
    }
}

private struct KeyedRecorder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: RecordingDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    /// Asked by dictionaries: one placeholder key, whose value gives the members' schema.
    var allKeys: [Key] {
        decoder.markMap()
        return Key(stringValue: "key").map { [$0] } ?? []
    }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.value(type) { decoder.addProperty(key.stringValue, $0, required: true) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        do {
            return try decoder.value(type) { decoder.addProperty(key.stringValue, $0, required: false) }
        } catch is SchemaRecorder.Partial {
            return nil
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(type as Bool.Type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decode(type as String.Type, key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decode(type as Double.Type, key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(type as Float.Type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(type as Int.Type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(type as Int8.Type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(type as Int16.Type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(type as Int32.Type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(type as Int64.Type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(type as UInt.Type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(type as UInt8.Type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decode(type as UInt16.Type, key)
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decode(type as UInt32.Type, key)
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decode(type as UInt64.Type, key)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.value(type) { decoder.addProperty(key.stringValue, $0, required: true) }
    }

    // The concrete overloads route to the generic ones, so that `decodeIfPresent` is
    // recorded as optional whichever overload the compiler picked.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try decoder.value(type) { decoder.addProperty(key.stringValue, $0, required: false) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let nested = RecordingDecoder(recorder: decoder.recorder)
        let container = try nested.container(keyedBy: type)
        // The nested object's members are recorded as they are asked for; it is listed as any
        // object here, since its shape is only known after the parent's initializer returns.
        decoder.addProperty(key.stringValue, .any, required: true)
        return container
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        decoder.addProperty(key.stringValue, .array(.any), required: true)
        return UnkeyedRecorder(decoder: RecordingDecoder(recorder: decoder.recorder))
    }

    func superDecoder() throws -> any Decoder { RecordingDecoder(recorder: decoder.recorder) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RecordingDecoder(recorder: decoder.recorder) }
}

private struct UnkeyedRecorder: UnkeyedDecodingContainer {
    let decoder: RecordingDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { nil }
    var currentIndex = 0
    /// One element is recorded; then the array ends.
    var isAtEnd: Bool { currentIndex > 0 }

    init(decoder: RecordingDecoder) {
        self.decoder = decoder
        if case .unkeyed = decoder.shape {} else { decoder.shape = .unkeyed(nil) }
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    private mutating func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        let decoder = self.decoder
        return try decoder.value(type) { schema in decoder.shape = .unkeyed(schema) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        currentIndex += 1
        return try RecordingDecoder(recorder: decoder.recorder).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return UnkeyedRecorder(decoder: RecordingDecoder(recorder: decoder.recorder))
    }

    mutating func superDecoder() throws -> any Decoder {
        currentIndex += 1
        return RecordingDecoder(recorder: decoder.recorder)
    }
}

private struct SingleRecorder: SingleValueDecodingContainer {
    let decoder: RecordingDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { false }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeValue(type) }
    func decode(_ type: String.Type) throws -> String { try decodeValue(type) }
    func decode(_ type: Double.Type) throws -> Double { try decodeValue(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeValue(type) }
    func decode(_ type: Int.Type) throws -> Int { try decodeValue(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeValue(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeValue(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeValue(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeValue(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeValue(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeValue(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeValue(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeValue(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeValue(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    private func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = self.decoder
        return try decoder.value(type) { schema in decoder.shape = .single(schema) }
    }
}
