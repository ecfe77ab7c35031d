//! `TableDefinition::stream`: the table's DynamoDB Stream in the
//! `CreateTable` input and the CloudFormation template (no server).

use aws_sdk_dynamodb::types::StreamViewType;
use serde_json::json;

#[test]
fn schema_a_table_has_no_stream_unless_asked() {
    let definition = stamp_examples::table_definition();
    assert_eq!(definition.stream_view_type(), None);
    let input = definition.request("shop").unwrap();
    assert_eq!(input.stream_specification(), None);
    let template = definition.cloudformation().unwrap().to_json_value();
    assert_eq!(
        template["Resources"]["Table"]["Properties"].get("StreamSpecification"),
        None
    );
    assert_eq!(template["Outputs"].get("StreamArn"), None);
}

#[test]
fn schema_the_stream_goes_into_create_table_and_cloudformation() {
    for (view_type, name) in [
        (StreamViewType::NewAndOldImages, "NEW_AND_OLD_IMAGES"),
        (StreamViewType::NewImage, "NEW_IMAGE"),
        (StreamViewType::OldImage, "OLD_IMAGE"),
        (StreamViewType::KeysOnly, "KEYS_ONLY"),
    ] {
        let definition = stamp_examples::table_definition().stream(view_type.clone());
        let input = definition.request("shop").unwrap();
        let spec = input.stream_specification().unwrap();
        assert!(spec.stream_enabled());
        assert_eq!(spec.stream_view_type(), Some(&view_type));

        let template = definition.cloudformation().unwrap().to_json_value();
        assert_eq!(
            template["Resources"]["Table"]["Properties"]["StreamSpecification"],
            json!({"StreamViewType": name})
        );
        assert_eq!(
            template["Outputs"]["StreamArn"],
            json!({
                "Description": "The ARN of the table's DynamoDB Stream.",
                "Value": {"Fn::GetAtt": ["Table", "StreamArn"]}
            })
        );
    }
}
