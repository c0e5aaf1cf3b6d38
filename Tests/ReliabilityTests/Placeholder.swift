import Testing

@Test func reliabilityTestsBuild() {
    #expect(Bool(true))
}
