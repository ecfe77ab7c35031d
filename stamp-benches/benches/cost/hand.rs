//! The hand-written code Stamp is measured against, in two styles:
//!
//! - `serde_*`: what modyne users write: `serde_dynamo::to_item` of the
//!   struct, then the key attributes with `format!`, and
//!   `serde_dynamo::from_item` back;
//! - `direct_*`: the attribute map built with `AttributeValue` calls, one
//!   field at a time, and read back by taking each attribute out of the map.
//!
//! Both build exactly the attribute map Stamp builds (checked before the
//! benchmarks run), so all three do the same work as far as DynamoDB can see.

use std::fmt::Write as _;

use aws_sdk_dynamodb::types::AttributeValue;
use chrono::{DateTime, SecondsFormat, Utc};
use stamp::AttributeMap;
use uuid::Uuid;

use crate::model::{Order, OrderStatus, Reading, Shipment};

/// Why a hand-written decode failed.
#[derive(Debug)]
pub struct DecodeError(#[allow(dead_code)] pub &'static str);

/// A key time as Stamp encodes it: RFC 3339, UTC, 9 fractional digits.
fn key_time(time: &DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Nanos, true)
}

// ---------------------------------------------------------------- serde_dynamo + format!

/// An order's item the modyne way.
pub fn serde_order_to_item(order: &Order) -> Result<AttributeMap, serde_dynamo::Error> {
    let mut item: AttributeMap = serde_dynamo::to_item(order)?;
    // Times in the form that sorts, as Stamp stores them.
    item.insert("created_at".to_owned(), time(&order.created_at));
    item.insert("updated_at".to_owned(), time(&order.updated_at));
    item.insert(
        "PK".to_owned(),
        AttributeValue::S(format!("CUST#{}", order.customer_id)),
    );
    item.insert(
        "SK".to_owned(),
        AttributeValue::S(format!(
            "ORDER#{}#{}",
            key_time(&order.created_at),
            order.order_id
        )),
    );
    if let Some(status) = order.status {
        item.insert(
            "GSI1PK".to_owned(),
            AttributeValue::S(format!("STATUS#{}", status.as_str())),
        );
        item.insert(
            "GSI1SK".to_owned(),
            AttributeValue::S(key_time(&order.updated_at)),
        );
    }
    item.insert("Type".to_owned(), AttributeValue::S("Order".to_owned()));
    Ok(item)
}

/// A reading's item the modyne way.
pub fn serde_reading_to_item(reading: &Reading) -> Result<AttributeMap, serde_dynamo::Error> {
    let mut item: AttributeMap = serde_dynamo::to_item(reading)?;
    item.insert("taken_at".to_owned(), time(&reading.taken_at));
    item.insert(
        "PK".to_owned(),
        AttributeValue::S(format!("DEVICE#{}", reading.device_id)),
    );
    item.insert(
        "SK".to_owned(),
        AttributeValue::S(format!("READING#{}", key_time(&reading.taken_at))),
    );
    item.insert("Type".to_owned(), AttributeValue::S("Reading".to_owned()));
    Ok(item)
}

/// A value back from its item the modyne way (key attributes ignored by serde).
pub fn serde_from_item<T: serde::de::DeserializeOwned>(
    item: AttributeMap,
) -> Result<T, serde_dynamo::Error> {
    serde_dynamo::from_item(item)
}

/// A shipment's primary key with `format!`.
pub fn format_shipment_key(shipment: &Shipment) -> (String, String) {
    (
        format!("WAREHOUSE#{}", shipment.warehouse),
        format_shipment_sort_key(shipment),
    )
}

/// The three-field sort key with `format!`.
pub fn format_shipment_sort_key(shipment: &Shipment) -> String {
    format!(
        "SHIP#{}#{}#{}",
        shipment.shipped_on, shipment.carrier, shipment.shipment_id
    )
}

// ---------------------------------------------------------------- direct AttributeValue

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

fn n(number: impl ToString) -> AttributeValue {
    AttributeValue::N(number.to_string())
}

/// A time as Stamp stores it: RFC 3339, UTC, 9 fractional digits (the
/// form keys use, which sorts).
fn time(time: &DateTime<Utc>) -> AttributeValue {
    AttributeValue::S(key_time(time))
}

fn uuid(id: &Uuid) -> AttributeValue {
    AttributeValue::S(
        id.hyphenated()
            .encode_lower(&mut Uuid::encode_buffer())
            .to_owned(),
    )
}

/// An order's item built attribute by attribute.
pub fn direct_order_to_item(order: &Order) -> AttributeMap {
    let mut item = AttributeMap::with_capacity(19);
    let mut pk = String::with_capacity(5 + order.customer_id.len());
    pk.push_str("CUST#");
    pk.push_str(&order.customer_id);
    let mut sk = String::with_capacity(6 + 30 + 1 + 36);
    sk.push_str("ORDER#");
    sk.push_str(&key_time(&order.created_at));
    sk.push('#');
    sk.push_str(
        order
            .order_id
            .hyphenated()
            .encode_lower(&mut Uuid::encode_buffer()),
    );
    item.insert("PK".to_owned(), AttributeValue::S(pk));
    item.insert("SK".to_owned(), AttributeValue::S(sk));
    if let Some(status) = order.status {
        let mut gsi1pk = String::with_capacity(7 + 9);
        gsi1pk.push_str("STATUS#");
        gsi1pk.push_str(status.as_str());
        item.insert("GSI1PK".to_owned(), AttributeValue::S(gsi1pk));
        item.insert(
            "GSI1SK".to_owned(),
            AttributeValue::S(key_time(&order.updated_at)),
        );
        item.insert("status".to_owned(), s(status.as_str()));
    }
    item.insert("Type".to_owned(), s("Order"));
    item.insert("customer_id".to_owned(), s(&order.customer_id));
    item.insert("order_id".to_owned(), uuid(&order.order_id));
    item.insert("created_at".to_owned(), time(&order.created_at));
    item.insert("updated_at".to_owned(), time(&order.updated_at));
    item.insert("total_cents".to_owned(), n(order.total_cents));
    item.insert("currency".to_owned(), s(&order.currency));
    item.insert("line_count".to_owned(), n(order.line_count));
    item.insert("email".to_owned(), s(&order.email));
    item.insert("shipping_address".to_owned(), s(&order.shipping_address));
    item.insert("billing_address".to_owned(), s(&order.billing_address));
    item.insert("note".to_owned(), s(&order.note));
    item.insert("gift".to_owned(), AttributeValue::Bool(order.gift));
    item.insert(
        "skus".to_owned(),
        AttributeValue::L(order.skus.iter().map(|sku| s(sku)).collect()),
    );
    item
}

/// A reading's item built attribute by attribute.
pub fn direct_reading_to_item(reading: &Reading) -> AttributeMap {
    let mut item = AttributeMap::with_capacity(20);
    let mut pk = String::with_capacity(7 + reading.device_id.len());
    pk.push_str("DEVICE#");
    pk.push_str(&reading.device_id);
    let mut sk = String::with_capacity(8 + 30);
    sk.push_str("READING#");
    sk.push_str(&key_time(&reading.taken_at));
    item.insert("PK".to_owned(), AttributeValue::S(pk));
    item.insert("SK".to_owned(), AttributeValue::S(sk));
    item.insert("Type".to_owned(), s("Reading"));
    item.insert("device_id".to_owned(), s(&reading.device_id));
    item.insert("taken_at".to_owned(), time(&reading.taken_at));
    item.insert("firmware".to_owned(), s(&reading.firmware));
    item.insert("site".to_owned(), s(&reading.site));
    item.insert("temperature_mc".to_owned(), n(reading.temperature_mc));
    item.insert("humidity_pm".to_owned(), n(reading.humidity_pm));
    item.insert("pressure_pa".to_owned(), n(reading.pressure_pa));
    item.insert("battery_mv".to_owned(), n(reading.battery_mv));
    item.insert("rssi_dbm".to_owned(), n(reading.rssi_dbm));
    item.insert("uptime_s".to_owned(), n(reading.uptime_s));
    item.insert("sequence".to_owned(), n(reading.sequence));
    item.insert("errors".to_owned(), n(reading.errors));
    item.insert(
        "charging".to_owned(),
        AttributeValue::Bool(reading.charging),
    );
    item.insert(
        "door_open".to_owned(),
        AttributeValue::Bool(reading.door_open),
    );
    item.insert("latitude".to_owned(), n(reading.latitude));
    item.insert("longitude".to_owned(), n(reading.longitude));
    item.insert("label".to_owned(), s(&reading.label));
    item
}

fn take_s(item: &mut AttributeMap, name: &'static str) -> Result<String, DecodeError> {
    match item.remove(name) {
        Some(AttributeValue::S(text)) => Ok(text),
        _ => Err(DecodeError(name)),
    }
}

fn take_n<T: std::str::FromStr>(
    item: &mut AttributeMap,
    name: &'static str,
) -> Result<T, DecodeError> {
    match item.remove(name) {
        Some(AttributeValue::N(number)) => number.parse().map_err(|_| DecodeError(name)),
        _ => Err(DecodeError(name)),
    }
}

fn take_bool(item: &mut AttributeMap, name: &'static str) -> Result<bool, DecodeError> {
    match item.remove(name) {
        Some(AttributeValue::Bool(value)) => Ok(value),
        _ => Err(DecodeError(name)),
    }
}

fn take_time(item: &mut AttributeMap, name: &'static str) -> Result<DateTime<Utc>, DecodeError> {
    let text = take_s(item, name)?;
    DateTime::parse_from_rfc3339(&text)
        .map(|time| time.with_timezone(&Utc))
        .map_err(|_| DecodeError(name))
}

fn take_uuid(item: &mut AttributeMap, name: &'static str) -> Result<Uuid, DecodeError> {
    Uuid::try_parse(&take_s(item, name)?).map_err(|_| DecodeError(name))
}

/// An order read back attribute by attribute.
pub fn direct_order_from_item(mut item: AttributeMap) -> Result<Order, DecodeError> {
    let status = match item.remove("status") {
        None | Some(AttributeValue::Null(_)) => None,
        Some(AttributeValue::S(text)) => {
            Some(OrderStatus::parse(&text).ok_or(DecodeError("status"))?)
        }
        Some(_) => return Err(DecodeError("status")),
    };
    let skus = match item.remove("skus") {
        Some(AttributeValue::L(values)) => values
            .into_iter()
            .map(|value| match value {
                AttributeValue::S(sku) => Ok(sku),
                _ => Err(DecodeError("skus")),
            })
            .collect::<Result<_, _>>()?,
        _ => return Err(DecodeError("skus")),
    };
    Ok(Order {
        customer_id: take_s(&mut item, "customer_id")?,
        order_id: take_uuid(&mut item, "order_id")?,
        created_at: take_time(&mut item, "created_at")?,
        updated_at: take_time(&mut item, "updated_at")?,
        status,
        total_cents: take_n(&mut item, "total_cents")?,
        currency: take_s(&mut item, "currency")?,
        line_count: take_n(&mut item, "line_count")?,
        email: take_s(&mut item, "email")?,
        shipping_address: take_s(&mut item, "shipping_address")?,
        billing_address: take_s(&mut item, "billing_address")?,
        note: take_s(&mut item, "note")?,
        gift: take_bool(&mut item, "gift")?,
        skus,
    })
}

/// A reading read back attribute by attribute.
pub fn direct_reading_from_item(mut item: AttributeMap) -> Result<Reading, DecodeError> {
    Ok(Reading {
        device_id: take_s(&mut item, "device_id")?,
        taken_at: take_time(&mut item, "taken_at")?,
        firmware: take_s(&mut item, "firmware")?,
        site: take_s(&mut item, "site")?,
        temperature_mc: take_n(&mut item, "temperature_mc")?,
        humidity_pm: take_n(&mut item, "humidity_pm")?,
        pressure_pa: take_n(&mut item, "pressure_pa")?,
        battery_mv: take_n(&mut item, "battery_mv")?,
        rssi_dbm: take_n(&mut item, "rssi_dbm")?,
        uptime_s: take_n(&mut item, "uptime_s")?,
        sequence: take_n(&mut item, "sequence")?,
        errors: take_n(&mut item, "errors")?,
        charging: take_bool(&mut item, "charging")?,
        door_open: take_bool(&mut item, "door_open")?,
        latitude: take_n(&mut item, "latitude")?,
        longitude: take_n(&mut item, "longitude")?,
        label: take_s(&mut item, "label")?,
    })
}

/// A shipment's primary key pushed into strings of the right capacity.
pub fn direct_shipment_key(shipment: &Shipment) -> (String, String) {
    let mut pk = String::with_capacity(10 + shipment.warehouse.len());
    pk.push_str("WAREHOUSE#");
    pk.push_str(&shipment.warehouse);
    (pk, direct_shipment_sort_key(shipment))
}

/// The three-field sort key pushed into a string of the right capacity.
pub fn direct_shipment_sort_key(shipment: &Shipment) -> String {
    let mut sk = String::with_capacity(5 + 10 + 1 + shipment.carrier.len() + 1 + 36);
    sk.push_str("SHIP#");
    write!(sk, "{}", shipment.shipped_on).expect("writing to a String cannot fail");
    sk.push('#');
    sk.push_str(&shipment.carrier);
    sk.push('#');
    sk.push_str(
        shipment
            .shipment_id
            .hyphenated()
            .encode_lower(&mut Uuid::encode_buffer()),
    );
    sk
}
