import CourierPrimitives
import Foundation
import Testing

@testable import CourierOpenAPI

/// Documents whose components hold the schemas under test.
enum SchemaFixtures {
    static func document(_ version: String, schemas: String) throws -> OpenAPIDocument {
        let indented = schemas.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
            .joined(separator: "\n")
        return try OpenAPIDocument.parse(
            Data(
                "openapi: \(version)\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n\(indented)\n"
                    .utf8))
    }

    static func yaml(_ text: String) throws -> JSONValue { try YAML.parse(Data(text.utf8)) }
}

/// Each keyword the validator checks, with the path and rule of what it refuses.
@Suite struct SchemaValidatorTests {
    let v30: OpenAPIDocument
    let v31: OpenAPIDocument

    init() throws {
        v30 = try SchemaFixtures.document(
            "3.0.3",
            schemas: """
                Pet:
                  type: object
                  required: [id, name]
                  properties:
                    id: {type: integer, format: int64, readOnly: true}
                    name: {type: string, minLength: 1, maxLength: 5, pattern: '^[a-z]+$'}
                    tag: {type: string, nullable: true}
                    age: {type: integer, minimum: 0, maximum: 30, exclusiveMaximum: true}
                    password: {type: string, writeOnly: true}
                  additionalProperties: false
                Cat: {type: object, required: [kind, meows], properties: {kind: {type: string}, meows: {type: boolean}}}
                Dog: {type: object, required: [kind, barks], properties: {kind: {type: string}, barks: {type: integer}}}
                Animal:
                  oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
                  discriminator: {propertyName: kind, mapping: {cat: '#/components/schemas/Cat', dog: Dog}}
                Node: {type: object, properties: {next: {$ref: '#/components/schemas/Node'}}}
                """)
        v31 = try SchemaFixtures.document(
            "3.1.0",
            schemas: """
                Maybe: {type: [string, 'null'], const: null}
                Range: {type: number, exclusiveMinimum: 0, exclusiveMaximum: 10, multipleOf: 0.5}
                Pair: {type: array, prefixItems: [{type: string}, {type: integer}], items: false, minItems: 2}
                Formats:
                  type: object
                  properties:
                    when: {type: string, format: date-time}
                    day: {type: string, format: date}
                    id: {type: string, format: uuid}
                    mail: {type: string, format: email}
                    link: {type: string, format: uri}
                    v4: {type: string, format: ipv4}
                    v6: {type: string, format: ipv6}
                    small: {type: integer, format: int32}
                    blob: {type: string, format: byte}
                Bag: {type: object, minProperties: 1, maxProperties: 2, additionalProperties: {type: integer}}
                Set: {type: array, uniqueItems: true, maxItems: 3}
                Either: {anyOf: [{type: string}, {type: integer}], not: {const: 3}}
                """)
    }

    private func schema(_ document: OpenAPIDocument, _ name: String) -> JSONValue {
        .object(["$ref": .string("#/components/schemas/\(name)")])
    }

    private func violations(
        _ document: OpenAPIDocument, _ name: String, _ value: String,
        _ direction: SchemaValidator.Direction = .response
    ) throws -> [String] {
        SchemaValidator(document: document).validate(
            try SchemaFixtures.yaml(value), against: schema(document, name), direction: direction
        ).map { "\($0.path) \($0.rule)" }
    }

    /// A hostile value breaks its schema in more places than a report can use: the violations stop at
    /// the cap, as the declaration's do, instead of growing with the value.
    @Test func violationsAreCapped() throws {
        let schema: JSONValue = .object([
            "type": .string("array"), "items": .object(["type": .string("string")]),
        ])
        let value = JSONValue.array(Array(repeating: .int(1), count: 5_000))
        let validator = SchemaValidator(document: v31)
        #expect(validator.validate(value, against: schema).count == 1_000)
        #expect(validator.validate(value, against: schema, limit: 3).map(\.path) == ["$[0]", "$[1]", "$[2]"])
        #expect(validator.validate(.array([.int(1)]), against: schema).count == 1)
    }

    @Test func validObjectPasses() throws {
        #expect(try violations(v30, "Pet", "{id: 1, name: rex, tag: null, age: 3}").isEmpty)
    }

    @Test func eachObjectRuleIsNamedWithItsPath() throws {
        let found = try violations(v30, "Pet", "{id: 1.5, name: Rex123, age: 30, extra: 1, tag: 4}")
        #expect(
            Set(found) == [
                "$.id type", "$.name maxLength", "$.name pattern", "$.age exclusiveMaximum",
                "$.extra additionalProperties", "$.tag type",
            ])
        #expect(try violations(v30, "Pet", "{id: 1}") == ["$.name required"])
        #expect(try violations(v30, "Pet", "[]") == ["$ type"])
    }

    @Test func readOnlyAndWriteOnlyFollowTheDirection() throws {
        #expect(try violations(v30, "Pet", "{name: rex}", .request).isEmpty)
        #expect(try violations(v30, "Pet", "{name: rex}", .response) == ["$.id required"])
    }

    @Test func discriminatorSelectsBranch() throws {
        #expect(try violations(v30, "Animal", "{kind: cat, meows: true}").isEmpty)
        #expect(try violations(v30, "Animal", "{kind: Dog, barks: 2}").isEmpty)
        #expect(try violations(v30, "Animal", "{kind: cat, barks: 2}") == ["$.meows required"])
        #expect(try violations(v30, "Animal", "{kind: fish}") == ["$ discriminator"])
        #expect(try violations(v30, "Animal", "{meows: true}") == ["$ discriminator"])
    }

    @Test func recursiveSchemasValidateFinitely() throws {
        #expect(try violations(v30, "Node", "{next: {next: {next: {}}}}").isEmpty)
        #expect(try violations(v30, "Node", "{next: {next: 5}}") == ["$.next.next type"])
    }

    @Test func openAPI31Keywords() throws {
        #expect(try violations(v31, "Maybe", "null").isEmpty)
        #expect(try violations(v31, "Maybe", "'x'") == ["$ const"])
        #expect(try violations(v31, "Range", "9.5").isEmpty)
        #expect(Set(try violations(v31, "Range", "10")) == ["$ exclusiveMaximum"])
        #expect(try violations(v31, "Range", "0.7") == ["$ multipleOf"])
        #expect(try violations(v31, "Pair", "[a, 1]").isEmpty)
        #expect(Set(try violations(v31, "Pair", "[1, a, x]")) == ["$[0] type", "$[1] type", "$[2] false"])
        #expect(try violations(v31, "Bag", "{}") == ["$ minProperties"])
        #expect(Set(try violations(v31, "Bag", "{a: 1, b: x, c: 3}")) == ["$ maxProperties", "$.b type"])
        #expect(try violations(v31, "Set", "[1, 2, 1]") == ["$[2] uniqueItems"])
        let huge = SchemaValidator(document: v31).validate(
            try JSONValue.parse(Data("-9223372036854775809".utf8)),
            against: .object(["type": .string("integer"), "format": .string("int64")]))
        #expect(huge.map(\.rule) == ["format"])
        #expect(
            SchemaValidator(document: v31).validate(
                .int(.min), against: .object(["type": .string("integer"), "format": .string("int64")])
            ).isEmpty)
        #expect(try violations(v31, "Either", "4").isEmpty)
        #expect(try violations(v31, "Either", "3") == ["$ not"])
        #expect(try violations(v31, "Either", "true") == ["$ anyOf"])
    }

    @Test func formats() throws {
        let good =
            "{when: '2024-02-29T23:59:60.25+01:00', day: '2024-02-29', id: 123e4567-e89b-12d3-a456-426614174000, mail: a@example.com, link: 'https://example.com/a?b', v4: 10.0.0.255, v6: '::1', small: 2147483647, blob: aGk=}"
        #expect(try violations(v31, "Formats", good).isEmpty)
        let bad =
            "{when: '2024-02-30T10:00:00Z', day: '2023-02-29', id: not-a-uuid, mail: a@b, link: no scheme, v4: 256.1.1.1, v6: '1::2::3', small: 2147483648, blob: 'a'}"
        #expect(
            Set(try violations(v31, "Formats", bad)) == [
                "$.when format", "$.day format", "$.id format", "$.mail format", "$.link format",
                "$.v4 format",
                "$.v6 format", "$.small format", "$.blob format",
            ])
    }
}

/// A value that arrives as text is typed by its schema's own type, its references, its `allOf` parts and
/// its `oneOf`/`anyOf` options: one rule for a document's parameters, form fields and XML, and a
/// declaration's parameters.
@Test func aTextValueIsTypedThroughReferencesPartsAndOptions() throws {
    let document = try SchemaFixtures.document(
        "3.1.0", schemas: "Count: {type: integer}\nFlag: {anyOf: [{type: boolean}, {type: 'null'}]}")
    let validator = SchemaValidator(document: document)
    let count = try SchemaFixtures.yaml("{$ref: '#/components/schemas/Count'}")
    #expect(validator.value(ofText: "7", for: count) == .int(7))
    #expect(validator.value(ofText: "seven", for: count) == .string("seven"))
    let parts = try SchemaFixtures.yaml("{allOf: [{$ref: '#/components/schemas/Count'}, {minimum: 1}]}")
    #expect(validator.value(ofText: "7", for: parts) == .int(7))
    let flag = try SchemaFixtures.yaml("{$ref: '#/components/schemas/Flag'}")
    #expect(validator.value(ofText: "true", for: flag) == .bool(true))
    #expect(validator.value(ofText: "null", for: flag) == .null)
    #expect(validator.value(ofText: "", for: flag) == .null)
    let nullableText = try SchemaFixtures.yaml("{type: [string, 'null']}")
    #expect(validator.value(ofText: "", for: nullableText) == .string(""))
    let number = try SchemaFixtures.yaml("{oneOf: [{type: number}, {type: string}]}")
    #expect(validator.value(ofText: "2.5", for: number) == .double(2.5))
}
