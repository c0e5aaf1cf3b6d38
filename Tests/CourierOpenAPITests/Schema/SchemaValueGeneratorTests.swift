import CourierPrimitives
import Foundation
import Testing

@testable import CourierOpenAPI

/// Every generated value validates against its schema, for many seeds; the same seed gives the same
/// value.
@Suite struct SchemaValueGeneratorTests {
    static let schemas = """
        Pet:
          type: object
          required: [id, name, status]
          properties:
            id: {type: integer, format: int64, minimum: 1, readOnly: true}
            name: {type: string, minLength: 2, maxLength: 6}
            status: {type: string, enum: [available, sold]}
            tag: {type: string, nullable: true}
            code: {type: string, pattern: '^[A-Z]{3}-\\d{2,4}(x|y)?$'}
            weight: {type: number, minimum: 0.5, maximum: 2, exclusiveMinimum: true}
            born: {type: string, format: date-time}
            id2: {type: string, format: uuid}
            mail: {type: string, format: email}
            site: {type: string, format: uri}
            ip: {type: string, format: ipv4}
            ip6: {type: string, format: ipv6}
            blob: {type: string, format: byte}
            day: {type: string, format: date}
            tags: {type: array, items: {type: string, enum: [a, b, c]}, uniqueItems: true, minItems: 2, maxItems: 3}
            even: {type: integer, multipleOf: 2, minimum: 3, maximum: 9}
            password: {type: string, writeOnly: true}
          additionalProperties: false
        Cat: {type: object, required: [kind, meows], properties: {kind: {type: string}, meows: {type: boolean}}}
        Dog: {type: object, required: [kind, barks], properties: {kind: {type: string}, barks: {type: integer, maximum: -5}}}
        Animal:
          oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
          discriminator: {propertyName: kind, mapping: {cat: '#/components/schemas/Cat'}}
        Named:
          allOf:
            - $ref: '#/components/schemas/Cat'
            - {type: object, required: [name], properties: {name: {type: string, maxLength: 3}}}
        Node: {type: object, required: [value], properties: {value: {type: integer}, next: {$ref: '#/components/schemas/Node'}}}
        Map: {type: object, minProperties: 2, additionalProperties: {type: integer, minimum: 10, maximum: 12}}
        Either: {oneOf: [{type: integer, maximum: 5}, {type: integer, minimum: 3}]}
        Int53: {type: integer, format: int64, minimum: -9007199254740991, maximum: 9007199254740991}
        """

    @Test(
        "generated values validate",
        arguments: ["Pet", "Animal", "Named", "Node", "Map", "Either", "Int53"])
    func everyValueValidates(name: String) throws {
        let document = try SchemaFixtures.document("3.0.3", schemas: Self.schemas)
        let validator = SchemaValidator(document: document)
        let schema = JSONValue.object(["$ref": .string("#/components/schemas/\(name)")])
        for direction in [SchemaValidator.Direction.request, .response] {
            for seed in UInt64(0)..<60 {
                let generator = SchemaValueGenerator(document: document, prefersExamples: seed % 2 == 0)
                let value = try generator.value(for: schema, seed: seed, direction: direction)
                let violations = validator.validate(value, against: schema, direction: direction)
                #expect(violations.isEmpty, "\(name) seed \(seed): \(value.text) \(violations)")
            }
        }
    }

    @Test func readOnlyAndWriteOnlyStayOutOfTheirDirection() throws {
        let document = try SchemaFixtures.document("3.0.3", schemas: Self.schemas)
        let schema = JSONValue.object(["$ref": .string("#/components/schemas/Pet")])
        for seed in UInt64(0)..<20 {
            let request = try SchemaValueGenerator(document: document).value(
                for: schema, seed: seed, direction: .request)
            #expect(request["id"] == nil)
            let response = try SchemaValueGenerator(document: document).value(for: schema, seed: seed)
            #expect(response["password"] == nil)
            #expect(response["id"] != nil)
        }
    }

    @Test func sameSeedSameValueOtherSeedOtherValue() throws {
        let document = try SchemaFixtures.document("3.0.3", schemas: Self.schemas)
        let schema = JSONValue.object(["$ref": .string("#/components/schemas/Pet")])
        let generator = SchemaValueGenerator(document: document)
        #expect(try generator.value(for: schema, seed: 42) == generator.value(for: schema, seed: 42))
        let values = Set(try (UInt64(0)..<10).map { try generator.value(for: schema, seed: $0).text })
        #expect(values.count > 5)
    }

    @Test func openAPI31SchemasGenerate() throws {
        let document = try SchemaFixtures.document(
            "3.1.0",
            schemas: """
                Row:
                  type: object
                  required: [pair, maybe, score]
                  properties:
                    pair: {type: array, prefixItems: [{type: string, const: x}, {type: integer}], items: false, minItems: 2}
                    maybe: {type: [integer, 'null'], exclusiveMinimum: 0, exclusiveMaximum: 3}
                    score: {type: number, exclusiveMinimum: 0, maximum: 1, multipleOf: 0.25}
                    labels: {type: object, patternProperties: {'^x-': {type: string}}, additionalProperties: false}
                """)
        let validator = SchemaValidator(document: document)
        let schema = JSONValue.object(["$ref": .string("#/components/schemas/Row")])
        for seed in UInt64(0)..<60 {
            let value = try SchemaValueGenerator(document: document).value(for: schema, seed: seed)
            #expect(validator.validate(value, against: schema).isEmpty, "seed \(seed): \(value.text)")
        }
    }

    @Test func impossibleSchemasThrowInsteadOfLying() throws {
        let document = try SchemaFixtures.document(
            "3.1.0",
            schemas: """
                Never: {type: integer, minimum: 5, maximum: 4}
                Lookahead: {type: string, pattern: '^(?=a)b$'}
                Contradiction: {allOf: [{type: string}, {type: integer}]}
                """)
        for name in ["Never", "Lookahead", "Contradiction"] {
            let schema = JSONValue.object(["$ref": .string("#/components/schemas/\(name)")])
            #expect(throws: SchemaGenerationError.self, "\(name)") {
                try SchemaValueGenerator(document: document).value(for: schema, seed: 1)
            }
        }
    }
}
