//! The requests the benches compare, each written twice: through Stamp and
//! by hand with the SDK.

use super::*;

/// The requests, both ways, on one table (and the sharded one).
pub(super) struct Ops<'a> {
    pub(super) client: &'a Client,
    pub(super) table: &'a Table,
    /// The table of [`ShardedOrder`]s.
    pub(super) sharded_table: &'a Table,
    /// The order `get` reads.
    pub(super) read: &'a Order,
    /// The order `put` and the transaction write.
    pub(super) written: Order,
    /// The order `update` and the transaction count on.
    pub(super) counted: &'a Order,
    /// The orders the transaction of ten writes.
    pub(super) written_10: Vec<Order>,
    /// The orders the transaction of ten counts on.
    pub(super) counted_10: &'a [Order],
}

impl Ops<'_> {
    /// Both ways give the same answers before anything is timed; returns
    /// the items and bytes of the 1 MB page.
    pub(super) async fn check(&self) -> (usize, usize) {
        assert_eq!(self.stamp_get().await, self.sdk_get().await);
        assert_eq!(self.stamp_query().await, self.sdk_query().await);
        let sharded = self.stamp_sharded_query().await;
        assert_eq!(sharded.len(), SHARDED_PAGE);
        assert!(
            sharded
                .windows(2)
                .all(|pair| pair[0].updated_at > pair[1].updated_at),
            "the merged page is newest first"
        );
        assert_eq!(sharded, self.sdk_sharded_query().await);
        let page = self.stamp_page().await;
        assert!(!page.is_empty());
        if benchmarking() {
            assert!(
                page.len() < page_orders(),
                "the partition holds more than one 1 MB page"
            );
        }
        assert_eq!(page, self.sdk_page().await);
        let bytes = page
            .iter()
            .map(|order| stamp::item::item_size(&stamp::Entity::to_item(order).unwrap()))
            .sum();
        self.stamp_transaction_10().await;
        self.sdk_transaction_10().await;
        (page.len(), bytes)
    }

    pub(super) fn key(order: &Order) -> (AttributeValue, AttributeValue) {
        let item = hand::serde_order_to_item(order).unwrap();
        (item["PK"].clone(), item["SK"].clone())
    }

    pub(super) async fn stamp_get(&self) -> Order {
        let read = self.read;
        let key = Order::key(&read.customer_id, &read.created_at, &read.order_id).unwrap();
        self.table.get(&key).await.unwrap().unwrap()
    }

    pub(super) async fn sdk_get(&self) -> Order {
        let (pk, sk) = Self::key(self.read);
        let output = self
            .client
            .get_item()
            .table_name(self.table.name())
            .key("PK", pk)
            .key("SK", sk)
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await
            .unwrap();
        hand::serde_from_item(output.item.unwrap()).unwrap()
    }

    pub(super) async fn stamp_put(&self) {
        self.table.put(&self.written).await.unwrap();
    }

    pub(super) async fn sdk_put(&self) {
        self.client
            .put_item()
            .table_name(self.table.name())
            .set_item(Some(hand::serde_order_to_item(&self.written).unwrap()))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await
            .unwrap();
    }

    pub(super) async fn stamp_query(&self) -> Vec<Order> {
        Order::query(&format!("c-{CUSTOMER:06}"))
            .newest_first()
            .limit(10)
            .send(self.table)
            .await
            .unwrap()
            .items
    }

    pub(super) async fn sdk_query(&self) -> Vec<Order> {
        crate::server::sdk_query_of(self.client, self.table.name(), CUSTOMER).await
    }

    /// One page of the big partition, without a limit: DynamoDB stops at 1 MB.
    pub(super) async fn stamp_page(&self) -> Vec<Order> {
        Order::query(&format!("c-{PAGE_CUSTOMER:06}"))
            .send(self.table)
            .await
            .unwrap()
            .items
    }

    pub(super) async fn sdk_page(&self) -> Vec<Order> {
        let output = self
            .client
            .query()
            .table_name(self.table.name())
            .key_condition_expression("#pk = :pk AND begins_with(#sk, :sk)")
            .expression_attribute_names("#pk", "PK")
            .expression_attribute_names("#sk", "SK")
            .expression_attribute_values(
                ":pk",
                AttributeValue::S(format!("CUST#c-{PAGE_CUSTOMER:06}")),
            )
            .expression_attribute_values(":sk", AttributeValue::S("ORDER#".to_owned()))
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await
            .unwrap();
        output
            .items
            .unwrap_or_default()
            .into_iter()
            .map(hand::serde_from_item)
            .collect::<Result<_, _>>()
            .unwrap()
    }

    /// The newest [`SHARDED_PAGE`] paid orders: Stamp's merged page of the
    /// 16 shards.
    pub(super) async fn stamp_sharded_query(&self) -> Vec<ShardedOrder> {
        ShardedOrder::query_gsi1(&OrderStatus::Paid)
            .newest_first()
            .limit(SHARDED_PAGE as u32)
            .send(self.sharded_table)
            .await
            .unwrap()
            .items
    }

    /// The same by hand: one `Query` per shard, sent together, each the
    /// newest [`SHARDED_PAGE`] of its shard; the items merged by the index
    /// sort key, newest first (ties by shard, as Stamp's), cut to
    /// [`SHARDED_PAGE`], and only those decoded.
    pub(super) async fn sdk_sharded_query(&self) -> Vec<ShardedOrder> {
        let pages = try_join_all((0..SHARDS).map(|shard| {
            self.client
                .query()
                .table_name(self.sharded_table.name())
                .index_name("GSI1")
                .key_condition_expression("#pk = :pk")
                .expression_attribute_names("#pk", "GSI1PK")
                .expression_attribute_values(
                    ":pk",
                    AttributeValue::S(format!("STATUS#PAID#{shard}")),
                )
                .scan_index_forward(false)
                .limit(SHARDED_PAGE as i32)
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
        }))
        .await
        .unwrap();
        let mut items: Vec<AttributeMap> = pages
            .into_iter()
            .flat_map(|page| page.items.unwrap_or_default())
            .collect();
        let sort_key = |item: &AttributeMap| match item.get("GSI1SK") {
            Some(AttributeValue::S(text)) => text.clone(),
            _ => panic!("an item of GSI1 has GSI1SK"),
        };
        // Stable: equal keys stay in shard order.
        items.sort_by_cached_key(|item| std::cmp::Reverse(sort_key(item)));
        items.truncate(SHARDED_PAGE);
        items
            .into_iter()
            .map(hand::serde_from_item)
            .collect::<Result<_, _>>()
            .unwrap()
    }

    pub(super) fn stamp_count(&self) -> stamp::Update<Order> {
        Self::stamp_count_of(self.counted)
    }

    pub(super) fn sdk_count(&self) -> Update {
        self.sdk_count_of(self.counted)
    }

    pub(super) async fn stamp_update(&self) {
        self.stamp_count().send(self.table).await.unwrap();
    }

    /// `ADD line_count 1` on an existing order.
    pub(super) fn stamp_count_of(order: &Order) -> stamp::Update<Order> {
        Order::update(&order.customer_id, &order.created_at, &order.order_id)
            .add(Order::LINE_COUNT, &1)
    }

    /// The same by hand, as Stamp renders it.
    pub(super) fn sdk_count_of(&self, order: &Order) -> Update {
        let (pk, sk) = Self::key(order);
        Update::builder()
            .table_name(self.table.name())
            .key("PK", pk)
            .key("SK", sk)
            .update_expression("ADD #n0 :v0")
            .condition_expression("attribute_exists(#n1)")
            .expression_attribute_names("#n0", "line_count")
            .expression_attribute_names("#n1", "PK")
            .expression_attribute_values(":v0", AttributeValue::N("1".to_owned()))
            .build()
            .unwrap()
    }

    /// Ten actions in one transaction: five puts and five counts, each on
    /// its own item.
    pub(super) async fn stamp_transaction_10(&self) {
        let mut transaction = TransactWrite::new();
        for order in &self.written_10 {
            transaction = transaction.put(order);
        }
        for order in self.counted_10 {
            transaction = transaction.update(Self::stamp_count_of(order));
        }
        transaction.send(self.table).await.unwrap();
    }

    pub(super) async fn sdk_transaction_10(&self) {
        let mut request = self.client.transact_write_items();
        for order in &self.written_10 {
            let put = Put::builder()
                .table_name(self.table.name())
                .set_item(Some(hand::serde_order_to_item(order).unwrap()))
                .build()
                .unwrap();
            request = request.transact_items(TransactWriteItem::builder().put(put).build());
        }
        for order in self.counted_10 {
            request = request.transact_items(
                TransactWriteItem::builder()
                    .update(self.sdk_count_of(order))
                    .build(),
            );
        }
        request
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await
            .unwrap();
    }

    pub(super) async fn sdk_update(&self) {
        let update = self.sdk_count();
        self.client
            .update_item()
            .table_name(self.table.name())
            .set_key(Some(update.key))
            .update_expression(update.update_expression)
            .set_condition_expression(update.condition_expression)
            .set_expression_attribute_names(update.expression_attribute_names)
            .set_expression_attribute_values(update.expression_attribute_values)
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await
            .unwrap();
    }

    /// A put of one order and the count on another, in one transaction.
    pub(super) async fn stamp_transaction(&self) {
        TransactWrite::new()
            .put(&self.written)
            .update(self.stamp_count())
            .send(self.table)
            .await
            .unwrap();
    }

    pub(super) async fn sdk_transaction(&self) {
        let put = Put::builder()
            .table_name(self.table.name())
            .set_item(Some(hand::serde_order_to_item(&self.written).unwrap()))
            .build()
            .unwrap();
        self.client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(put).build())
            .transact_items(
                TransactWriteItem::builder()
                    .update(self.sdk_count())
                    .build(),
            )
            .return_consumed_capacity(ReturnConsumedCapacity::Total)
            .send()
            .await
            .unwrap();
    }
}
