// #[derive(KeyPart)] OrderStatus
const _: () = {
    #[automatically_derived]
    impl ::stamp::KeyPart for OrderStatus {
        const LEN_HINT: usize = 9usize;
        const NEEDS_ESCAPING: bool = false;
        fn example(_field: &str) -> ::core::option::Option<Self> {
            ::core::option::Option::Some(Self::Pending)
        }
        fn encode_key(
            &self,
            out: &mut ::std::string::String,
        ) -> ::core::result::Result<(), ::stamp::KeyPartError> {
            out.push_str(
                match self {
                    Self::Pending => "PENDING",
                    Self::Paid => "PAID",
                    Self::Shipped => "SHIPPED",
                    Self::Delivered => "DELIVERED",
                },
            );
            ::core::result::Result::Ok(())
        }
        fn decode_key(
            encoded: &str,
        ) -> ::core::result::Result<Self, ::stamp::KeyPartError> {
            match encoded {
                "PENDING" => ::core::result::Result::Ok(Self::Pending),
                "PAID" => ::core::result::Result::Ok(Self::Paid),
                "SHIPPED" => ::core::result::Result::Ok(Self::Shipped),
                "DELIVERED" => ::core::result::Result::Ok(Self::Delivered),
                _ => {
                    ::core::result::Result::Err(
                        ::stamp::KeyPartError::invalid(
                            "a `OrderStatus`: one of PENDING, PAID, SHIPPED, DELIVERED",
                            encoded,
                        ),
                    )
                }
            }
        }
    }
    #[automatically_derived]
    impl ::stamp::IndexKeyAttribute for OrderStatus {
        const TYPE: ::stamp::KeyAttributeType = ::stamp::KeyAttributeType::S;
        fn to_key_attribute(
            &self,
        ) -> ::core::result::Result<
            ::stamp::__private::AttributeValue,
            ::stamp::__private::serde_dynamo::Error,
        > {
            ::stamp::__private::key_part_attribute(self)
        }
    }
};

// #[derive(Item)] Customer
const _: () = {
    use ::stamp::__private as __stamp;
    #[allow(unused_imports)]
    use ::stamp::__private::codec::{
        DecodeBinary as _, DecodeDirect as _, DecodeSerde as _, EncodeBinary as _,
        EncodeDirect as _, EncodeSerde as _, SerdeFormAsStored as _,
        StoreAsSerialized as _, StoreBinary as _, StoreDirect as _,
    };
    #[automatically_derived]
    impl ::stamp::Entity for Customer {
        const SCHEMA: &'static ::stamp::EntitySchema = &::stamp::EntitySchema {
            type_name: "Customer",
            type_attribute: "Type",
            partition_key: __stamp::key_attribute(
                "PK",
                "CUST#<customer_id>",
                &[__stamp::L("CUST#"), __stamp::F("customer_id")],
            ),
            sort_key: __stamp::key_attribute("SK", "PROFILE", &[__stamp::L("PROFILE")]),
            fields: &["customer_id", "name", "email", "order_count", "created_at"],
            field_attributes: &[
                __stamp::field_attribute("customer_id", "customer_id", false, "S"),
                __stamp::field_attribute("name", "name", false, "S"),
                __stamp::field_attribute("email", "email", false, "S"),
                __stamp::field_attribute("order_count", "order_count", false, "N"),
                __stamp::field_attribute("created_at", "created_at", false, "S"),
            ],
            key_fields: &[
                __stamp::KeyField::new(
                    "customer_id",
                    <String as __stamp::KeyPart>::__stamp_example,
                ),
            ],
            unique_values: &[
                ::stamp::UniqueValue {
                    fields: &["email"],
                    attributes: &["email"],
                },
            ],
            ..__stamp::SCHEMA
        };
        #[inline]
        fn primary_key(
            &self,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            Self::key(&self.customer_id)
        }
        #[inline]
        fn encode_item_at(
            &self,
            __time: ::core::option::Option<::stamp::WriteTime>,
            __check: bool,
        ) -> ::core::result::Result<__stamp::ItemBuilder, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let (__partition_key, __sort_key) = <Self as ::stamp::Entity>::primary_key(
                    self,
                )?
                .into_parts();
            let mut __item = __stamp::codec::item(__schema, 5usize, __check);
            (&&&__stamp::codec::Field(&self.customer_id))
                .__stamp_insert(__schema, &mut __item, "customer_id")?;
            (&&&__stamp::codec::Field(&self.name))
                .__stamp_insert(__schema, &mut __item, "name")?;
            (&&&__stamp::codec::Field(&self.email))
                .__stamp_insert(__schema, &mut __item, "email")?;
            (&&&__stamp::codec::Field(&self.order_count))
                .__stamp_insert(__schema, &mut __item, "order_count")?;
            (&&&__stamp::codec::Field(&self.created_at))
                .__stamp_insert(__schema, &mut __item, "created_at")?;
            let _ = &__time;
            __stamp::insert_key_string(&mut __item, "PK", __partition_key);
            __stamp::insert_key_string(&mut __item, "SK", __sort_key);
            __stamp::insert_string(
                &mut __item,
                "Type",
                ::std::string::String::from("Customer"),
            );
            ::core::result::Result::Ok(__item)
        }
        #[inline]
        fn from_item(
            #[allow(unused_mut)]
            mut item: ::stamp::AttributeMap,
        ) -> ::core::result::Result<Self, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let mut __slots = __stamp::codec::slots::<5>(__schema, item)?;
            ::core::result::Result::Ok(Self {
                customer_id: (&&&__stamp::codec::Decode::<String>::new())
                    .__stamp_field(__schema, "customer_id", __slots[0].take())?,
                name: (&&&__stamp::codec::Decode::<String>::new())
                    .__stamp_field(__schema, "name", __slots[1].take())?,
                email: (&&&__stamp::codec::Decode::<String>::new())
                    .__stamp_field(__schema, "email", __slots[2].take())?,
                order_count: (&&&__stamp::codec::Decode::<u32>::new())
                    .__stamp_field(__schema, "order_count", __slots[3].take())?,
                created_at: (&&&__stamp::codec::Decode::<DateTime<Utc>>::new())
                    .__stamp_field(__schema, "created_at", __slots[4].take())?,
            })
        }
    }
    #[automatically_derived]
    impl Customer {
        ///Builds the primary key of a `Customer`: `PK` = `CUST#<customer_id>`, `SK` = `PROFILE`. ([more](stamp::key#generated-functions))
        #[inline]
        pub fn key(
            customer_id: &str,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            __stamp::primary_key(&[__stamp::KeyArg::Str(customer_id)], &[])
        }
        ///A query of `Customer` items on the table: `PK = CUST#<customer_id>`, sort key `SK` = `PROFILE` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn query(customer_id: &str) -> ::stamp::Query<Self, ::stamp::BaseTable> {
            __stamp::query(__stamp::At::Pk, &[__stamp::KeyArg::Str(customer_id)])
        }
        ///A scan of the whole table for `Customer` items (`Type` = `Customer`); nothing is sent until `stream`.
        #[inline]
        pub fn scan() -> ::stamp::Scan<Self> {
            ::stamp::Scan::new()
        }
        ///An update of the `Customer` item with this primary key, set through `Customer::FIELD` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn update(customer_id: &str) -> ::stamp::Update<Self> {
            #[allow(unused_mut)]
            let mut __known = ::stamp::AttributeMap::new();
            __stamp::know(
                &mut __known,
                &Self::CUSTOMER_ID,
                &::std::string::String::from(customer_id),
            );
            ::stamp::Update::new(Self::key(customer_id)).with_known_values(__known)
        }
        ///An upsert of the `Customer` item with this primary key: `Customer::update(…).into_upsert()` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn upsert(customer_id: &str) -> ::stamp::Update<Self> {
            Self::update(customer_id).into_upsert()
        }
        ///Parses a `PK` value of `Customer` into its fields (customer_id) by the template `CUST#<customer_id>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_partition_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::Pk, key)?;
            ::core::result::Result::Ok((
                <String as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///Parses a `SK` value of `Customer` into its fields (none: the template is a constant) by the template `PROFILE` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_sort_key(key: &str) -> ::core::result::Result<(), ::stamp::Error> {
            let _ = __stamp::parse_key::<Self>(__stamp::At::Sk, key)?;
            ::core::result::Result::Ok(())
        }
        ///The `customer_id` attribute of `Customer`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const CUSTOMER_ID: ::stamp::Attribute<
            Self,
            String,
            ::stamp::PrimaryKeyField,
        > = ::stamp::Attribute::with_encoder(
            "customer_id",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `name` attribute of `Customer`, for conditions, filters and updates (an update may set it).
        pub const NAME: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "name",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `email` attribute of `Customer`, for conditions, filters and updates (an update may set it).
        pub const EMAIL: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "email",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `order_count` attribute of `Customer`, for conditions, filters and updates (an update may set it).
        pub const ORDER_COUNT: ::stamp::Attribute<Self, u32, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "order_count",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `created_at` attribute of `Customer`, for conditions, filters and updates (an update may set it).
        pub const CREATED_AT: ::stamp::Attribute<
            Self,
            DateTime<Utc>,
            ::stamp::Required,
        > = ::stamp::Attribute::with_encoder(
            "created_at",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
    }
};

// #[derive(Item)] Order
const _: () = {
    use ::stamp::__private as __stamp;
    #[allow(unused_imports)]
    use ::stamp::__private::codec::{
        DecodeBinary as _, DecodeDirect as _, DecodeSerde as _, EncodeBinary as _,
        EncodeDirect as _, EncodeSerde as _, SerdeFormAsStored as _,
        StoreAsSerialized as _, StoreBinary as _, StoreDirect as _,
    };
    #[automatically_derived]
    impl ::stamp::Entity for Order {
        const SCHEMA: &'static ::stamp::EntitySchema = &::stamp::EntitySchema {
            type_name: "Order",
            type_attribute: "Type",
            partition_key: __stamp::key_attribute(
                "PK",
                "CUST#<customer_id>",
                &[__stamp::L("CUST#"), __stamp::F("customer_id")],
            ),
            sort_key: __stamp::key_attribute(
                "SK",
                "ORDER#<created_at>#<order_id>",
                &[
                    __stamp::L("ORDER#"),
                    __stamp::F("created_at"),
                    __stamp::L("#"),
                    __stamp::F("order_id"),
                ],
            ),
            fields: &[
                "customer_id",
                "order_id",
                "created_at",
                "created_month",
                "status",
                "updated_at",
                "total_cents",
                "line_count",
                "order_embedding",
            ],
            field_attributes: &[
                __stamp::field_attribute("customer_id", "customer_id", false, "S"),
                __stamp::field_attribute("order_id", "order_id", false, "S"),
                __stamp::field_attribute("created_at", "created_at", false, "S"),
                __stamp::field_attribute("created_month", "created_month", false, "S"),
                __stamp::field_attribute("status", "status", true, ""),
                __stamp::field_attribute("updated_at", "updated_at", false, "S"),
                __stamp::field_attribute("total_cents", "total_cents", false, "N"),
                __stamp::field_attribute("line_count", "line_count", false, "N"),
                __stamp::field_attribute("embedding", "order_embedding", false, "L"),
            ],
            key_fields: &[
                __stamp::KeyField::known(
                    "customer_id",
                    <String as __stamp::KeyPart>::__stamp_example,
                    |__schema, __values| __stamp::known_part(
                        (&&&__stamp::codec::Decode::<String>::new())
                            .__stamp_known(__schema, __values, "customer_id"),
                    ),
                ),
                __stamp::KeyField::new(
                    "created_at",
                    <DateTime<Utc> as __stamp::KeyPart>::__stamp_example,
                ),
                __stamp::KeyField::known(
                    "order_id",
                    <Uuid as __stamp::KeyPart>::__stamp_example,
                    |__schema, __values| __stamp::known_part(
                        (&&&__stamp::codec::Decode::<Uuid>::new())
                            .__stamp_known(__schema, __values, "order_id"),
                    ),
                ),
                __stamp::KeyField::known(
                    "status",
                    <OrderStatus as __stamp::KeyPart>::__stamp_example,
                    |__schema, __values| __stamp::known_optional_part(
                        (&&&__stamp::codec::Decode::<Option<OrderStatus>>::new())
                            .__stamp_known(__schema, __values, "status"),
                    ),
                ),
                __stamp::KeyField::known(
                    "updated_at",
                    <DateTime<Utc> as __stamp::KeyPart>::__stamp_example,
                    |__schema, __values| __stamp::known_part(
                        (&&&__stamp::codec::Decode::<DateTime<Utc>>::new())
                            .__stamp_known(__schema, __values, "updated_at"),
                    ),
                ),
            ],
            indexes: &[
                __stamp::gsi(
                    1u8,
                    "GSI1",
                    "query_gsi1",
                    16u16,
                    __stamp::key_attribute(
                        "GSI1PK",
                        "STATUS#<status>#<shard>",
                        &[
                            __stamp::L("STATUS#"),
                            __stamp::F("status"),
                            __stamp::L("#"),
                            __stamp::S(16u16),
                        ],
                    ),
                    ::core::option::Option::Some(
                        __stamp::key_attribute(
                            "GSI1SK",
                            "<updated_at>",
                            &[__stamp::F("updated_at")],
                        ),
                    ),
                ),
                __stamp::gsi(
                    2u8,
                    "GSI2",
                    "query_gsi2",
                    0u16,
                    __stamp::key_attribute(
                        "GSI2PK",
                        "ORDER#<order_id>",
                        &[__stamp::L("ORDER#"), __stamp::F("order_id")],
                    ),
                    ::core::option::Option::Some(
                        __stamp::key_attribute("GSI2SK", "ORDER", &[__stamp::L("ORDER")]),
                    ),
                ),
                ::stamp::IndexSchema {
                    number: 2u8,
                    name: "VECTOR2",
                    read_method: "search_similar_vector2",
                    kind: ::stamp::IndexKind::Vector(
                        &::stamp::VectorIndexSchema {
                            field: "embedding",
                            attribute: "order_embedding",
                            dimensions: 64u32,
                            distance: ::stamp::DistanceFunction::Cosine,
                            filters: &[
                                ::stamp::VectorElement {
                                    field: "created_month",
                                    attribute: "created_month",
                                    attribute_type: <String as ::stamp::IndexKeyAttribute>::TYPE,
                                },
                            ],
                            projection: ::stamp::VectorProjection::All,
                            optional: false,
                        },
                    ),
                    key: ::stamp::IndexKeySchema::Templates {
                        partition_key: __stamp::key_attribute(
                            "VECTOR2PK",
                            "CUST#<customer_id>",
                            &[__stamp::L("CUST#"), __stamp::F("customer_id")],
                        ),
                        sort_key: ::core::option::Option::None,
                    },
                },
            ],
            ..__stamp::SCHEMA
        };
        #[inline]
        fn primary_key(
            &self,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            Self::key(&self.customer_id, &self.created_at, &self.order_id)
        }
        #[inline]
        fn encode_item_at(
            &self,
            __time: ::core::option::Option<::stamp::WriteTime>,
            __check: bool,
        ) -> ::core::result::Result<__stamp::ItemBuilder, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let (__partition_key, __sort_key) = <Self as ::stamp::Entity>::primary_key(
                    self,
                )?
                .into_parts();
            let __shard_1 = ::stamp::shard_of(&__partition_key, &__sort_key, 16u16);
            let mut __item = __stamp::codec::item(__schema, 9usize, __check);
            (&&&__stamp::codec::Field(&self.customer_id))
                .__stamp_insert(__schema, &mut __item, "customer_id")?;
            (&&&__stamp::codec::Field(&self.order_id))
                .__stamp_insert(__schema, &mut __item, "order_id")?;
            (&&&__stamp::codec::Field(&self.created_at))
                .__stamp_insert(__schema, &mut __item, "created_at")?;
            (&&&__stamp::codec::Field(&self.created_month))
                .__stamp_insert(__schema, &mut __item, "created_month")?;
            (&&&__stamp::codec::Field(&self.status))
                .__stamp_insert(__schema, &mut __item, "status")?;
            (&&&__stamp::codec::Field(&self.updated_at))
                .__stamp_insert(__schema, &mut __item, "updated_at")?;
            (&&&__stamp::codec::Field(&self.total_cents))
                .__stamp_insert(__schema, &mut __item, "total_cents")?;
            (&&&__stamp::codec::Field(&self.line_count))
                .__stamp_insert(__schema, &mut __item, "line_count")?;
            (&&&__stamp::codec::Field(&self.embedding))
                .__stamp_insert(__schema, &mut __item, "order_embedding")?;
            let _ = &__time;
            __stamp::insert_key_string(&mut __item, "PK", __partition_key);
            __stamp::insert_key_string(&mut __item, "SK", __sort_key);
            if let (::core::option::Option::Some(__value_status),) = (&self.status,) {
                __stamp::insert_index_key(
                    &mut __item,
                    ("GSI1PK", "GSI1SK"),
                    Self::gsi1_key(__value_status, &self.updated_at, __shard_1)?
                        .into_parts(),
                );
            }
            {
                __stamp::insert_index_key(
                    &mut __item,
                    ("GSI2PK", "GSI2SK"),
                    Self::gsi2_key(&self.order_id)?.into_parts(),
                );
            }
            if __stamp::check_vector_attribute(
                __schema,
                &__schema.indexes[2usize],
                &__item,
            )? {
                let customer_id = &self.customer_id;
                let __vector_partition: ::std::string::String = __stamp::build_key(
                    __schema,
                    __stamp::At::IndexPk(2),
                    &[__stamp::KeyArg::Str(customer_id)],
                )?;
                __stamp::insert_key_string(&mut __item, "VECTOR2PK", __vector_partition);
            }
            __stamp::insert_string(
                &mut __item,
                "Type",
                ::std::string::String::from("Order"),
            );
            ::core::result::Result::Ok(__item)
        }
        #[inline]
        fn from_item(
            #[allow(unused_mut)]
            mut item: ::stamp::AttributeMap,
        ) -> ::core::result::Result<Self, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let mut __slots = __stamp::codec::slots::<9>(__schema, item)?;
            ::core::result::Result::Ok(Self {
                customer_id: (&&&__stamp::codec::Decode::<String>::new())
                    .__stamp_field(__schema, "customer_id", __slots[0].take())?,
                order_id: (&&&__stamp::codec::Decode::<Uuid>::new())
                    .__stamp_field(__schema, "order_id", __slots[1].take())?,
                created_at: (&&&__stamp::codec::Decode::<DateTime<Utc>>::new())
                    .__stamp_field(__schema, "created_at", __slots[2].take())?,
                created_month: (&&&__stamp::codec::Decode::<String>::new())
                    .__stamp_field(__schema, "created_month", __slots[3].take())?,
                status: (&&&__stamp::codec::Decode::<Option<OrderStatus>>::new())
                    .__stamp_field(__schema, "status", __slots[4].take())?,
                updated_at: (&&&__stamp::codec::Decode::<DateTime<Utc>>::new())
                    .__stamp_field(__schema, "updated_at", __slots[5].take())?,
                total_cents: (&&&__stamp::codec::Decode::<u64>::new())
                    .__stamp_field(__schema, "total_cents", __slots[6].take())?,
                line_count: (&&&__stamp::codec::Decode::<u32>::new())
                    .__stamp_field(__schema, "line_count", __slots[7].take())?,
                embedding: (&&&__stamp::codec::Decode::<Vec<f32>>::new())
                    .__stamp_field(__schema, "order_embedding", __slots[8].take())?,
            })
        }
    }
    #[automatically_derived]
    impl Order {
        ///Builds the primary key of a `Order`: `PK` = `CUST#<customer_id>`, `SK` = `ORDER#<created_at>#<order_id>`. ([more](stamp::key#generated-functions))
        #[inline]
        pub fn key(
            customer_id: &str,
            created_at: &DateTime<Utc>,
            order_id: &Uuid,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            __stamp::primary_key(
                &[__stamp::KeyArg::Str(customer_id)],
                &[
                    <DateTime<Utc> as __stamp::KeyPart>::__stamp_key_arg(created_at),
                    <Uuid as __stamp::KeyPart>::__stamp_key_arg(order_id),
                ],
            )
        }
        ///Builds the key of a `Order` in index `GSI1`: `GSI1PK` = `STATUS#<status>#<shard>`, `GSI1SK` = `<updated_at>`. `shard` is the item's (0 to 15). ([more](stamp::key#generated-functions))
        #[inline]
        pub fn gsi1_key(
            status: &OrderStatus,
            updated_at: &DateTime<Utc>,
            shard: u16,
        ) -> ::core::result::Result<::stamp::IndexKey<Self>, ::stamp::Error> {
            let __shard = shard;
            __stamp::index_key(
                0usize,
                &[
                    <OrderStatus as __stamp::KeyPart>::__stamp_key_arg(status),
                    __stamp::KeyArg::Shard(__shard),
                ],
                ::core::option::Option::Some(
                    &[<DateTime<Utc> as __stamp::KeyPart>::__stamp_key_arg(updated_at)],
                ),
            )
        }
        ///Builds the key of a `Order` in index `GSI2`: `GSI2PK` = `ORDER#<order_id>`, `GSI2SK` = `ORDER`. ([more](stamp::key#generated-functions))
        #[inline]
        pub fn gsi2_key(
            order_id: &Uuid,
        ) -> ::core::result::Result<::stamp::IndexKey<Self>, ::stamp::Error> {
            __stamp::index_key(
                1usize,
                &[<Uuid as __stamp::KeyPart>::__stamp_key_arg(order_id)],
                ::core::option::Option::Some(&[]),
            )
        }
        ///A query of `Order` items on the table: `PK = CUST#<customer_id>`, sort key `SK` = `ORDER#<created_at>#<order_id>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn query(customer_id: &str) -> ::stamp::Query<Self, ::stamp::BaseTable> {
            __stamp::query(__stamp::At::Pk, &[__stamp::KeyArg::Str(customer_id)])
        }
        ///A query of `Order` items on index `GSI1`: `GSI1PK = STATUS#<status>#<shard>`, sort key `GSI1SK` = `<updated_at>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn query_gsi1(
            status: &OrderStatus,
        ) -> ::stamp::Query<Self, ::stamp::Gsi<1u8>> {
            __stamp::query(
                __stamp::At::IndexPk(0),
                &[<OrderStatus as __stamp::KeyPart>::__stamp_key_arg(status)],
            )
        }
        ///A query of `Order` items on index `GSI2`: `GSI2PK = ORDER#<order_id>`, sort key `GSI2SK` = `ORDER` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn query_gsi2(order_id: &Uuid) -> ::stamp::Query<Self, ::stamp::Gsi<2u8>> {
            __stamp::query(
                __stamp::At::IndexPk(1),
                &[<Uuid as __stamp::KeyPart>::__stamp_key_arg(order_id)],
            )
        }
        ///A scan of the whole table for `Order` items (`Type` = `Order`); nothing is sent until `stream`.
        #[inline]
        pub fn scan() -> ::stamp::Scan<Self> {
            ::stamp::Scan::new()
        }
        ///An update of the `Order` item with this primary key, set through `Order::FIELD` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn update(
            customer_id: &str,
            created_at: &DateTime<Utc>,
            order_id: &Uuid,
        ) -> ::stamp::Update<Self> {
            #[allow(unused_mut)]
            let mut __known = ::stamp::AttributeMap::new();
            __stamp::know(
                &mut __known,
                &Self::CUSTOMER_ID,
                &::std::string::String::from(customer_id),
            );
            __stamp::know(&mut __known, &Self::CREATED_AT, created_at);
            __stamp::know(&mut __known, &Self::ORDER_ID, order_id);
            ::stamp::Update::new(Self::key(customer_id, created_at, order_id))
                .with_known_values(__known)
        }
        ///An upsert of the `Order` item with this primary key: `Order::update(…).into_upsert()` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn upsert(
            customer_id: &str,
            created_at: &DateTime<Utc>,
            order_id: &Uuid,
        ) -> ::stamp::Update<Self> {
            Self::update(customer_id, created_at, order_id).into_upsert()
        }
        ///A similarity search of vector index `VECTOR2` (`order_embedding`, 64 dimensions, Cosine) of `Order` for the items nearest `vector`, in the partition `VECTOR2PK` = `CUST#<customer_id>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn search_similar_vector2(
            customer_id: &str,
            vector: &[f32],
        ) -> ::stamp::SimilaritySearch<Self, ::stamp::Vector<2u8>> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            ::stamp::SimilaritySearch::new(
                &__schema.indexes[2usize],
                __stamp::build_key(
                        __schema,
                        __stamp::At::IndexPk(2),
                        &[__stamp::KeyArg::Str(customer_id)],
                    )
                    .map(|__key| ::core::option::Option::Some(
                        ::stamp::aws_sdk_dynamodb::types::AttributeValue::S(__key),
                    )),
                vector,
            )
        }
        ///Parses a `PK` value of `Order` into its fields (customer_id) by the template `CUST#<customer_id>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_partition_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::Pk, key)?;
            ::core::result::Result::Ok((
                <String as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///Parses a `SK` value of `Order` into its fields (created_at, order_id) by the template `ORDER#<created_at>#<order_id>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_sort_key(
            key: &str,
        ) -> ::core::result::Result<(DateTime<Utc>, Uuid), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::Sk, key)?;
            ::core::result::Result::Ok((
                <DateTime<Utc> as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
                <Uuid as __stamp::KeyPart>::__stamp_parse(&__key, 1usize)?,
            ))
        }
        ///Parses a `GSI1PK` value of `Order` into its fields (status) by the template `STATUS#<status>#<shard>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_gsi1_partition_key(
            key: &str,
        ) -> ::core::result::Result<(OrderStatus,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::IndexPk(0), key)?;
            ::core::result::Result::Ok((
                <OrderStatus as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///Parses a `GSI1SK` value of `Order` into its fields (updated_at) by the template `<updated_at>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_gsi1_sort_key(
            key: &str,
        ) -> ::core::result::Result<(DateTime<Utc>,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::IndexSk(0), key)?;
            ::core::result::Result::Ok((
                <DateTime<Utc> as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///Parses a `GSI2PK` value of `Order` into its fields (order_id) by the template `ORDER#<order_id>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_gsi2_partition_key(
            key: &str,
        ) -> ::core::result::Result<(Uuid,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::IndexPk(1), key)?;
            ::core::result::Result::Ok((
                <Uuid as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///Parses a `GSI2SK` value of `Order` into its fields (none: the template is a constant) by the template `ORDER` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_gsi2_sort_key(
            key: &str,
        ) -> ::core::result::Result<(), ::stamp::Error> {
            let _ = __stamp::parse_key::<Self>(__stamp::At::IndexSk(1), key)?;
            ::core::result::Result::Ok(())
        }
        ///Parses a `VECTOR2PK` value of `Order` into its fields (customer_id) by the template `CUST#<customer_id>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_vector2_partition_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::IndexPk(2), key)?;
            ::core::result::Result::Ok((
                <String as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///The `customer_id` attribute of `Order`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const CUSTOMER_ID: ::stamp::Attribute<
            Self,
            String,
            ::stamp::PrimaryKeyField,
        > = ::stamp::Attribute::with_encoder(
            "customer_id",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `order_id` attribute of `Order`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const ORDER_ID: ::stamp::Attribute<Self, Uuid, ::stamp::PrimaryKeyField> = ::stamp::Attribute::with_encoder(
            "order_id",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `created_at` attribute of `Order`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const CREATED_AT: ::stamp::Attribute<
            Self,
            DateTime<Utc>,
            ::stamp::PrimaryKeyField,
        > = ::stamp::Attribute::with_encoder(
            "created_at",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `created_month` attribute of `Order`, for conditions, filters and updates (an update may set it).
        pub const CREATED_MONTH: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "created_month",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `status` attribute of `Order`, for conditions, filters and updates (optional: an update may set or remove it).
        pub const STATUS: ::stamp::Attribute<Self, OrderStatus, ::stamp::Optional> = ::stamp::Attribute::with_encoder(
            "status",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `updated_at` attribute of `Order`, for conditions, filters and updates (an update may set it).
        pub const UPDATED_AT: ::stamp::Attribute<
            Self,
            DateTime<Utc>,
            ::stamp::Required,
        > = ::stamp::Attribute::with_encoder(
            "updated_at",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `total_cents` attribute of `Order`, for conditions, filters and updates (an update may set it).
        pub const TOTAL_CENTS: ::stamp::Attribute<Self, u64, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "total_cents",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `line_count` attribute of `Order`, for conditions, filters and updates (an update may set it).
        pub const LINE_COUNT: ::stamp::Attribute<Self, u32, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "line_count",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `order_embedding` attribute of `Order`, for conditions, filters and updates (an update may set it).
        pub const EMBEDDING: ::stamp::Attribute<Self, Vec<f32>, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "order_embedding",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
    }
    #[automatically_derived]
    impl<'__a> ::stamp::SortKeyPrefix<Order, ::stamp::BaseTable>
    for &'__a DateTime<Utc> {
        #[inline]
        fn sort_key_prefix(
            &self,
        ) -> ::core::result::Result<::stamp::SortKeyText, ::stamp::Error> {
            let created_at = *self;
            __stamp::key_prefix(
                <Order as ::stamp::Entity>::SCHEMA,
                __stamp::At::Sk,
                &[<DateTime<Utc> as __stamp::KeyPart>::__stamp_key_arg(created_at)],
            )
        }
    }
    #[automatically_derived]
    impl<'__a> ::stamp::SortKeyPrefix<Order, ::stamp::BaseTable>
    for (&'__a DateTime<Utc>, &'__a Uuid) {
        #[inline]
        fn sort_key_prefix(
            &self,
        ) -> ::core::result::Result<::stamp::SortKeyText, ::stamp::Error> {
            let (created_at, order_id) = *self;
            __stamp::key_prefix(
                <Order as ::stamp::Entity>::SCHEMA,
                __stamp::At::Sk,
                &[
                    <DateTime<Utc> as __stamp::KeyPart>::__stamp_key_arg(created_at),
                    <Uuid as __stamp::KeyPart>::__stamp_key_arg(order_id),
                ],
            )
        }
    }
    #[automatically_derived]
    impl<'__a> ::stamp::SortKeyPrefix<Order, ::stamp::Gsi<1u8>> for &'__a DateTime<Utc> {
        #[inline]
        fn sort_key_prefix(
            &self,
        ) -> ::core::result::Result<::stamp::SortKeyText, ::stamp::Error> {
            let updated_at = *self;
            __stamp::key_prefix(
                <Order as ::stamp::Entity>::SCHEMA,
                __stamp::At::IndexSk(0),
                &[<DateTime<Utc> as __stamp::KeyPart>::__stamp_key_arg(updated_at)],
            )
        }
    }
    ///The inline filters of vector index `VECTOR2` of `Order`, the only attributes the condition of a `search_similar_vector2(…).filter(|f| …)` may compare: a field that is not one does not compile.
    #[derive(Clone, Copy, Debug)]
    pub struct OrderVector2Filters {
        ///The inline filter `created_month` of vector index `VECTOR2`.
        pub created_month: ::stamp::SearchAttribute<Order, ::stamp::Vector<2u8>, String>,
    }
    #[automatically_derived]
    impl ::stamp::VectorFilters<::stamp::Vector<2u8>> for Order {
        type Filters = OrderVector2Filters;
        const FILTERS: OrderVector2Filters = OrderVector2Filters {
            created_month: ::stamp::SearchAttribute::new(Order::CREATED_MONTH),
        };
    }
};

// #[derive(Item)] LineItem
const _: () = {
    use ::stamp::__private as __stamp;
    #[allow(unused_imports)]
    use ::stamp::__private::codec::{
        DecodeBinary as _, DecodeDirect as _, DecodeSerde as _, EncodeBinary as _,
        EncodeDirect as _, EncodeSerde as _, SerdeFormAsStored as _,
        StoreAsSerialized as _, StoreBinary as _, StoreDirect as _,
    };
    #[automatically_derived]
    impl ::stamp::Entity for LineItem {
        const SCHEMA: &'static ::stamp::EntitySchema = &::stamp::EntitySchema {
            type_name: "LineItem",
            type_attribute: "Type",
            partition_key: __stamp::key_attribute(
                "PK",
                "ORDER#<order_id>",
                &[__stamp::L("ORDER#"), __stamp::F("order_id")],
            ),
            sort_key: __stamp::key_attribute(
                "SK",
                "ITEM#<line_no>",
                &[__stamp::L("ITEM#"), __stamp::F("line_no")],
            ),
            fields: &["order_id", "line_no", "sku", "quantity", "unit_price_cents"],
            field_attributes: &[
                __stamp::field_attribute("order_id", "order_id", false, "S"),
                __stamp::field_attribute("line_no", "line_no", false, "N"),
                __stamp::field_attribute("sku", "sku", false, "S"),
                __stamp::field_attribute("quantity", "quantity", false, "N"),
                __stamp::field_attribute(
                    "unit_price_cents",
                    "unit_price_cents",
                    false,
                    "N",
                ),
            ],
            key_fields: &[
                __stamp::KeyField::known(
                    "order_id",
                    <Uuid as __stamp::KeyPart>::__stamp_example,
                    |__schema, __values| __stamp::known_part(
                        (&&&__stamp::codec::Decode::<Uuid>::new())
                            .__stamp_known(__schema, __values, "order_id"),
                    ),
                ),
                __stamp::KeyField::known(
                    "line_no",
                    <u32 as __stamp::KeyPart>::__stamp_example,
                    |__schema, __values| __stamp::known_part(
                        (&&&__stamp::codec::Decode::<u32>::new())
                            .__stamp_known(__schema, __values, "line_no"),
                    ),
                ),
            ],
            indexes: &[
                __stamp::gsi(
                    2u8,
                    "GSI2",
                    "query_gsi2",
                    0u16,
                    __stamp::key_attribute(
                        "GSI2PK",
                        "ORDER#<order_id>",
                        &[__stamp::L("ORDER#"), __stamp::F("order_id")],
                    ),
                    ::core::option::Option::Some(
                        __stamp::key_attribute(
                            "GSI2SK",
                            "ITEM#<line_no>",
                            &[__stamp::L("ITEM#"), __stamp::F("line_no")],
                        ),
                    ),
                ),
            ],
            ..__stamp::SCHEMA
        };
        #[inline]
        fn primary_key(
            &self,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            Self::key(&self.order_id, &self.line_no)
        }
        #[inline]
        fn encode_item_at(
            &self,
            __time: ::core::option::Option<::stamp::WriteTime>,
            __check: bool,
        ) -> ::core::result::Result<__stamp::ItemBuilder, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let (__partition_key, __sort_key) = <Self as ::stamp::Entity>::primary_key(
                    self,
                )?
                .into_parts();
            let mut __item = __stamp::codec::item(__schema, 5usize, __check);
            (&&&__stamp::codec::Field(&self.order_id))
                .__stamp_insert(__schema, &mut __item, "order_id")?;
            (&&&__stamp::codec::Field(&self.line_no))
                .__stamp_insert(__schema, &mut __item, "line_no")?;
            (&&&__stamp::codec::Field(&self.sku))
                .__stamp_insert(__schema, &mut __item, "sku")?;
            (&&&__stamp::codec::Field(&self.quantity))
                .__stamp_insert(__schema, &mut __item, "quantity")?;
            (&&&__stamp::codec::Field(&self.unit_price_cents))
                .__stamp_insert(__schema, &mut __item, "unit_price_cents")?;
            let _ = &__time;
            __stamp::insert_key_string(&mut __item, "PK", __partition_key);
            __stamp::insert_key_string(&mut __item, "SK", __sort_key);
            {
                __stamp::insert_index_key(
                    &mut __item,
                    ("GSI2PK", "GSI2SK"),
                    Self::gsi2_key(&self.order_id, &self.line_no)?.into_parts(),
                );
            }
            __stamp::insert_string(
                &mut __item,
                "Type",
                ::std::string::String::from("LineItem"),
            );
            ::core::result::Result::Ok(__item)
        }
        #[inline]
        fn from_item(
            #[allow(unused_mut)]
            mut item: ::stamp::AttributeMap,
        ) -> ::core::result::Result<Self, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let mut __slots = __stamp::codec::slots::<5>(__schema, item)?;
            ::core::result::Result::Ok(Self {
                order_id: (&&&__stamp::codec::Decode::<Uuid>::new())
                    .__stamp_field(__schema, "order_id", __slots[0].take())?,
                line_no: (&&&__stamp::codec::Decode::<u32>::new())
                    .__stamp_field(__schema, "line_no", __slots[1].take())?,
                sku: (&&&__stamp::codec::Decode::<String>::new())
                    .__stamp_field(__schema, "sku", __slots[2].take())?,
                quantity: (&&&__stamp::codec::Decode::<u32>::new())
                    .__stamp_field(__schema, "quantity", __slots[3].take())?,
                unit_price_cents: (&&&__stamp::codec::Decode::<u64>::new())
                    .__stamp_field(__schema, "unit_price_cents", __slots[4].take())?,
            })
        }
    }
    #[automatically_derived]
    impl LineItem {
        ///Builds the primary key of a `LineItem`: `PK` = `ORDER#<order_id>`, `SK` = `ITEM#<line_no>`. ([more](stamp::key#generated-functions))
        #[inline]
        pub fn key(
            order_id: &Uuid,
            line_no: &u32,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            __stamp::primary_key(
                &[<Uuid as __stamp::KeyPart>::__stamp_key_arg(order_id)],
                &[<u32 as __stamp::KeyPart>::__stamp_key_arg(line_no)],
            )
        }
        ///Builds the key of a `LineItem` in index `GSI2`: `GSI2PK` = `ORDER#<order_id>`, `GSI2SK` = `ITEM#<line_no>`. ([more](stamp::key#generated-functions))
        #[inline]
        pub fn gsi2_key(
            order_id: &Uuid,
            line_no: &u32,
        ) -> ::core::result::Result<::stamp::IndexKey<Self>, ::stamp::Error> {
            __stamp::index_key(
                0usize,
                &[<Uuid as __stamp::KeyPart>::__stamp_key_arg(order_id)],
                ::core::option::Option::Some(
                    &[<u32 as __stamp::KeyPart>::__stamp_key_arg(line_no)],
                ),
            )
        }
        ///A query of `LineItem` items on the table: `PK = ORDER#<order_id>`, sort key `SK` = `ITEM#<line_no>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn query(order_id: &Uuid) -> ::stamp::Query<Self, ::stamp::BaseTable> {
            __stamp::query(
                __stamp::At::Pk,
                &[<Uuid as __stamp::KeyPart>::__stamp_key_arg(order_id)],
            )
        }
        ///A query of `LineItem` items on index `GSI2`: `GSI2PK = ORDER#<order_id>`, sort key `GSI2SK` = `ITEM#<line_no>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn query_gsi2(order_id: &Uuid) -> ::stamp::Query<Self, ::stamp::Gsi<2u8>> {
            __stamp::query(
                __stamp::At::IndexPk(0),
                &[<Uuid as __stamp::KeyPart>::__stamp_key_arg(order_id)],
            )
        }
        ///A scan of the whole table for `LineItem` items (`Type` = `LineItem`); nothing is sent until `stream`.
        #[inline]
        pub fn scan() -> ::stamp::Scan<Self> {
            ::stamp::Scan::new()
        }
        ///An update of the `LineItem` item with this primary key, set through `LineItem::FIELD` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn update(order_id: &Uuid, line_no: &u32) -> ::stamp::Update<Self> {
            #[allow(unused_mut)]
            let mut __known = ::stamp::AttributeMap::new();
            __stamp::know(&mut __known, &Self::ORDER_ID, order_id);
            __stamp::know(&mut __known, &Self::LINE_NO, line_no);
            ::stamp::Update::new(Self::key(order_id, line_no)).with_known_values(__known)
        }
        ///An upsert of the `LineItem` item with this primary key: `LineItem::update(…).into_upsert()` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn upsert(order_id: &Uuid, line_no: &u32) -> ::stamp::Update<Self> {
            Self::update(order_id, line_no).into_upsert()
        }
        ///Parses a `PK` value of `LineItem` into its fields (order_id) by the template `ORDER#<order_id>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_partition_key(
            key: &str,
        ) -> ::core::result::Result<(Uuid,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::Pk, key)?;
            ::core::result::Result::Ok((
                <Uuid as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///Parses a `SK` value of `LineItem` into its fields (line_no) by the template `ITEM#<line_no>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_sort_key(
            key: &str,
        ) -> ::core::result::Result<(u32,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::Sk, key)?;
            ::core::result::Result::Ok((
                <u32 as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///Parses a `GSI2PK` value of `LineItem` into its fields (order_id) by the template `ORDER#<order_id>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_gsi2_partition_key(
            key: &str,
        ) -> ::core::result::Result<(Uuid,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::IndexPk(0), key)?;
            ::core::result::Result::Ok((
                <Uuid as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///Parses a `GSI2SK` value of `LineItem` into its fields (line_no) by the template `ITEM#<line_no>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_gsi2_sort_key(
            key: &str,
        ) -> ::core::result::Result<(u32,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::IndexSk(0), key)?;
            ::core::result::Result::Ok((
                <u32 as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///The `order_id` attribute of `LineItem`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const ORDER_ID: ::stamp::Attribute<Self, Uuid, ::stamp::PrimaryKeyField> = ::stamp::Attribute::with_encoder(
            "order_id",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `line_no` attribute of `LineItem`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const LINE_NO: ::stamp::Attribute<Self, u32, ::stamp::PrimaryKeyField> = ::stamp::Attribute::with_encoder(
            "line_no",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `sku` attribute of `LineItem`, for conditions, filters and updates (an update may set it).
        pub const SKU: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "sku",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `quantity` attribute of `LineItem`, for conditions, filters and updates (an update may set it).
        pub const QUANTITY: ::stamp::Attribute<Self, u32, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "quantity",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `unit_price_cents` attribute of `LineItem`, for conditions, filters and updates (an update may set it).
        pub const UNIT_PRICE_CENTS: ::stamp::Attribute<Self, u64, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "unit_price_cents",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
    }
    #[automatically_derived]
    impl<'__a> ::stamp::SortKeyPrefix<LineItem, ::stamp::BaseTable> for &'__a u32 {
        #[inline]
        fn sort_key_prefix(
            &self,
        ) -> ::core::result::Result<::stamp::SortKeyText, ::stamp::Error> {
            let line_no = *self;
            __stamp::key_prefix(
                <LineItem as ::stamp::Entity>::SCHEMA,
                __stamp::At::Sk,
                &[<u32 as __stamp::KeyPart>::__stamp_key_arg(line_no)],
            )
        }
    }
    #[automatically_derived]
    impl<'__a> ::stamp::SortKeyPrefix<LineItem, ::stamp::Gsi<2u8>> for &'__a u32 {
        #[inline]
        fn sort_key_prefix(
            &self,
        ) -> ::core::result::Result<::stamp::SortKeyText, ::stamp::Error> {
            let line_no = *self;
            __stamp::key_prefix(
                <LineItem as ::stamp::Entity>::SCHEMA,
                __stamp::At::IndexSk(0),
                &[<u32 as __stamp::KeyPart>::__stamp_key_arg(line_no)],
            )
        }
    }
};

// #[derive(Item)] Product
///The fields of the key in index `GSI3` of `Product`, by name: two of them have the same type, so the key functions take them named, never by position, and they cannot be swapped.
#[derive(Clone, Copy)]
pub struct ProductGsi3Key<'a> {
    ///The `category` field of the `Product`.
    pub category: &'a str,
    ///The `sku` field of the `Product`.
    pub sku: &'a str,
}
const _: () = {
    use ::stamp::__private as __stamp;
    #[allow(unused_imports)]
    use ::stamp::__private::codec::{
        DecodeBinary as _, DecodeDirect as _, DecodeSerde as _, EncodeBinary as _,
        EncodeDirect as _, EncodeSerde as _, SerdeFormAsStored as _,
        StoreAsSerialized as _, StoreBinary as _, StoreDirect as _,
    };
    #[automatically_derived]
    impl ::stamp::Entity for Product {
        const SCHEMA: &'static ::stamp::EntitySchema = &::stamp::EntitySchema {
            type_name: "Product",
            type_attribute: "Type",
            partition_key: __stamp::key_attribute(
                "PK",
                "PRODUCT#<sku>",
                &[__stamp::L("PRODUCT#"), __stamp::F("sku")],
            ),
            sort_key: __stamp::key_attribute("SK", "PRODUCT", &[__stamp::L("PRODUCT")]),
            fields: &["sku", "name", "category", "price_cents", "stock", "embedding"],
            field_attributes: &[
                __stamp::field_attribute("sku", "sku", false, "S"),
                __stamp::field_attribute("name", "name", false, "S"),
                __stamp::field_attribute("category", "category", false, "S"),
                __stamp::field_attribute("price_cents", "price_cents", false, "N"),
                __stamp::field_attribute("stock", "stock", false, "N"),
                __stamp::field_attribute("embedding", "embedding", false, "L"),
            ],
            key_fields: &[
                __stamp::KeyField::known(
                    "sku",
                    <String as __stamp::KeyPart>::__stamp_example,
                    |__schema, __values| __stamp::known_part(
                        (&&&__stamp::codec::Decode::<String>::new())
                            .__stamp_known(__schema, __values, "sku"),
                    ),
                ),
                __stamp::KeyField::known(
                    "category",
                    <String as __stamp::KeyPart>::__stamp_example,
                    |__schema, __values| __stamp::known_part(
                        (&&&__stamp::codec::Decode::<String>::new())
                            .__stamp_known(__schema, __values, "category"),
                    ),
                ),
            ],
            indexes: &[
                __stamp::gsi(
                    3u8,
                    "GSI3",
                    "query_gsi3",
                    0u16,
                    __stamp::key_attribute(
                        "GSI3PK",
                        "CATEGORY#<category>",
                        &[__stamp::L("CATEGORY#"), __stamp::F("category")],
                    ),
                    ::core::option::Option::Some(
                        __stamp::key_attribute("GSI3SK", "<sku>", &[__stamp::F("sku")]),
                    ),
                ),
                ::stamp::IndexSchema {
                    number: 1u8,
                    name: "VECTOR1",
                    read_method: "search_similar_vector1",
                    kind: ::stamp::IndexKind::Vector(
                        &::stamp::VectorIndexSchema {
                            field: "embedding",
                            attribute: "embedding",
                            dimensions: 64u32,
                            distance: ::stamp::DistanceFunction::Cosine,
                            filters: &[],
                            projection: ::stamp::VectorProjection::All,
                            optional: false,
                        },
                    ),
                    key: ::stamp::IndexKeySchema::Unpartitioned,
                },
            ],
            named_inputs: &[("gsi3_key", "ProductGsi3Key")],
            ..__stamp::SCHEMA
        };
        #[inline]
        fn primary_key(
            &self,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            Self::key(&self.sku)
        }
        #[inline]
        fn encode_item_at(
            &self,
            __time: ::core::option::Option<::stamp::WriteTime>,
            __check: bool,
        ) -> ::core::result::Result<__stamp::ItemBuilder, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let (__partition_key, __sort_key) = <Self as ::stamp::Entity>::primary_key(
                    self,
                )?
                .into_parts();
            let mut __item = __stamp::codec::item(__schema, 6usize, __check);
            (&&&__stamp::codec::Field(&self.sku))
                .__stamp_insert(__schema, &mut __item, "sku")?;
            (&&&__stamp::codec::Field(&self.name))
                .__stamp_insert(__schema, &mut __item, "name")?;
            (&&&__stamp::codec::Field(&self.category))
                .__stamp_insert(__schema, &mut __item, "category")?;
            (&&&__stamp::codec::Field(&self.price_cents))
                .__stamp_insert(__schema, &mut __item, "price_cents")?;
            (&&&__stamp::codec::Field(&self.stock))
                .__stamp_insert(__schema, &mut __item, "stock")?;
            (&&&__stamp::codec::Field(&self.embedding))
                .__stamp_insert(__schema, &mut __item, "embedding")?;
            let _ = &__time;
            __stamp::insert_key_string(&mut __item, "PK", __partition_key);
            __stamp::insert_key_string(&mut __item, "SK", __sort_key);
            {
                __stamp::insert_index_key(
                    &mut __item,
                    ("GSI3PK", "GSI3SK"),
                    Self::gsi3_key(ProductGsi3Key {
                            category: &self.category,
                            sku: &self.sku,
                        })?
                        .into_parts(),
                );
            }
            if __stamp::check_vector_attribute(
                __schema,
                &__schema.indexes[1usize],
                &__item,
            )? {}
            __stamp::insert_string(
                &mut __item,
                "Type",
                ::std::string::String::from("Product"),
            );
            ::core::result::Result::Ok(__item)
        }
        #[inline]
        fn from_item(
            #[allow(unused_mut)]
            mut item: ::stamp::AttributeMap,
        ) -> ::core::result::Result<Self, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let mut __slots = __stamp::codec::slots::<6>(__schema, item)?;
            ::core::result::Result::Ok(Self {
                sku: (&&&__stamp::codec::Decode::<String>::new())
                    .__stamp_field(__schema, "sku", __slots[0].take())?,
                name: (&&&__stamp::codec::Decode::<String>::new())
                    .__stamp_field(__schema, "name", __slots[1].take())?,
                category: (&&&__stamp::codec::Decode::<String>::new())
                    .__stamp_field(__schema, "category", __slots[2].take())?,
                price_cents: (&&&__stamp::codec::Decode::<u64>::new())
                    .__stamp_field(__schema, "price_cents", __slots[3].take())?,
                stock: (&&&__stamp::codec::Decode::<u32>::new())
                    .__stamp_field(__schema, "stock", __slots[4].take())?,
                embedding: (&&&__stamp::codec::Decode::<Vec<f32>>::new())
                    .__stamp_field(__schema, "embedding", __slots[5].take())?,
            })
        }
    }
    #[automatically_derived]
    impl Product {
        ///Builds the primary key of a `Product`: `PK` = `PRODUCT#<sku>`, `SK` = `PRODUCT`. ([more](stamp::key#generated-functions))
        #[inline]
        pub fn key(
            sku: &str,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            __stamp::primary_key(&[__stamp::KeyArg::Str(sku)], &[])
        }
        ///Builds the key of a `Product` in index `GSI3`: `GSI3PK` = `CATEGORY#<category>`, `GSI3SK` = `<sku>`. ([more](stamp::key#generated-functions))
        #[inline]
        pub fn gsi3_key(
            key: ProductGsi3Key<'_>,
        ) -> ::core::result::Result<::stamp::IndexKey<Self>, ::stamp::Error> {
            let ProductGsi3Key { category, sku } = key;
            __stamp::index_key(
                0usize,
                &[__stamp::KeyArg::Str(category)],
                ::core::option::Option::Some(&[__stamp::KeyArg::Str(sku)]),
            )
        }
        ///A query of `Product` items on the table: `PK = PRODUCT#<sku>`, sort key `SK` = `PRODUCT` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn query(sku: &str) -> ::stamp::Query<Self, ::stamp::BaseTable> {
            __stamp::query(__stamp::At::Pk, &[__stamp::KeyArg::Str(sku)])
        }
        ///A query of `Product` items on index `GSI3`: `GSI3PK = CATEGORY#<category>`, sort key `GSI3SK` = `<sku>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn query_gsi3(category: &str) -> ::stamp::Query<Self, ::stamp::Gsi<3u8>> {
            __stamp::query(__stamp::At::IndexPk(0), &[__stamp::KeyArg::Str(category)])
        }
        ///A scan of the whole table for `Product` items (`Type` = `Product`); nothing is sent until `stream`.
        #[inline]
        pub fn scan() -> ::stamp::Scan<Self> {
            ::stamp::Scan::new()
        }
        ///An update of the `Product` item with this primary key, set through `Product::FIELD` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn update(sku: &str) -> ::stamp::Update<Self> {
            #[allow(unused_mut)]
            let mut __known = ::stamp::AttributeMap::new();
            __stamp::know(&mut __known, &Self::SKU, &::std::string::String::from(sku));
            ::stamp::Update::new(Self::key(sku)).with_known_values(__known)
        }
        ///An upsert of the `Product` item with this primary key: `Product::update(…).into_upsert()` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn upsert(sku: &str) -> ::stamp::Update<Self> {
            Self::update(sku).into_upsert()
        }
        ///A similarity search of vector index `VECTOR1` (`embedding`, 64 dimensions, Cosine) of `Product` for the items nearest `vector`, across the whole index ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn search_similar_vector1(
            vector: &[f32],
        ) -> ::stamp::SimilaritySearch<Self, ::stamp::Vector<1u8>> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            ::stamp::SimilaritySearch::new(
                &__schema.indexes[1usize],
                ::core::result::Result::Ok(::core::option::Option::None),
                vector,
            )
        }
        ///A similarity search of vector index `VECTOR1` (`embedding`, 64 dimensions, Cosine) of `Product` for the items nearest `vector`, across the whole index ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn search_similar(
            vector: &[f32],
        ) -> ::stamp::SimilaritySearch<Self, ::stamp::Vector<1u8>> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            ::stamp::SimilaritySearch::new(
                &__schema.indexes[1usize],
                ::core::result::Result::Ok(::core::option::Option::None),
                vector,
            )
        }
        ///Parses a `PK` value of `Product` into its fields (sku) by the template `PRODUCT#<sku>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_partition_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::Pk, key)?;
            ::core::result::Result::Ok((
                <String as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///Parses a `SK` value of `Product` into its fields (none: the template is a constant) by the template `PRODUCT` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_sort_key(key: &str) -> ::core::result::Result<(), ::stamp::Error> {
            let _ = __stamp::parse_key::<Self>(__stamp::At::Sk, key)?;
            ::core::result::Result::Ok(())
        }
        ///Parses a `GSI3PK` value of `Product` into its fields (category) by the template `CATEGORY#<category>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_gsi3_partition_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::IndexPk(0), key)?;
            ::core::result::Result::Ok((
                <String as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///Parses a `GSI3SK` value of `Product` into its fields (sku) by the template `<sku>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_gsi3_sort_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::IndexSk(0), key)?;
            ::core::result::Result::Ok((
                <String as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///The `sku` attribute of `Product`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const SKU: ::stamp::Attribute<Self, String, ::stamp::PrimaryKeyField> = ::stamp::Attribute::with_encoder(
            "sku",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `name` attribute of `Product`, for conditions, filters and updates (an update may set it).
        pub const NAME: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "name",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `category` attribute of `Product`, for conditions, filters and updates (an update may set it).
        pub const CATEGORY: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "category",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `price_cents` attribute of `Product`, for conditions, filters and updates (an update may set it).
        pub const PRICE_CENTS: ::stamp::Attribute<Self, u64, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "price_cents",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `stock` attribute of `Product`, for conditions, filters and updates (an update may set it).
        pub const STOCK: ::stamp::Attribute<Self, u32, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "stock",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `embedding` attribute of `Product`, for conditions, filters and updates (an update may set it).
        pub const EMBEDDING: ::stamp::Attribute<Self, Vec<f32>, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "embedding",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
    }
    #[automatically_derived]
    impl<'__a> ::stamp::SortKeyPrefix<Product, ::stamp::Gsi<3u8>> for &'__a str {
        #[inline]
        fn sort_key_prefix(
            &self,
        ) -> ::core::result::Result<::stamp::SortKeyText, ::stamp::Error> {
            let sku = *self;
            __stamp::key_prefix(
                <Product as ::stamp::Entity>::SCHEMA,
                __stamp::At::IndexSk(0),
                &[__stamp::KeyArg::Str(sku)],
            )
        }
    }
    ///The inline filters of vector index `VECTOR1` of `Product`, the only attributes the condition of a `search_similar_vector1(…).filter(|f| …)` may compare: a field that is not one does not compile.
    #[derive(Clone, Copy, Debug)]
    pub struct ProductVector1Filters {}
    #[automatically_derived]
    impl ::stamp::VectorFilters<::stamp::Vector<1u8>> for Product {
        type Filters = ProductVector1Filters;
        const FILTERS: ProductVector1Filters = ProductVector1Filters {};
    }
};

// #[derive(Item)] ProductSales
const _: () = {
    use ::stamp::__private as __stamp;
    #[allow(unused_imports)]
    use ::stamp::__private::codec::{
        DecodeBinary as _, DecodeDirect as _, DecodeSerde as _, EncodeBinary as _,
        EncodeDirect as _, EncodeSerde as _, SerdeFormAsStored as _,
        StoreAsSerialized as _, StoreBinary as _, StoreDirect as _,
    };
    #[automatically_derived]
    impl ::stamp::Entity for ProductSales {
        const SCHEMA: &'static ::stamp::EntitySchema = &::stamp::EntitySchema {
            type_name: "ProductSales",
            type_attribute: "Type",
            partition_key: __stamp::key_attribute(
                "PK",
                "PRODUCT#<sku>",
                &[__stamp::L("PRODUCT#"), __stamp::F("sku")],
            ),
            sort_key: __stamp::key_attribute(
                "SK",
                "SALES#<day>",
                &[__stamp::L("SALES#"), __stamp::F("day")],
            ),
            fields: &[
                "sku",
                "day",
                "units",
                "revenue_cents",
                "first_sale_at",
                "last_sale_at",
            ],
            field_attributes: &[
                __stamp::field_attribute("sku", "sku", false, "S"),
                __stamp::field_attribute("day", "day", false, "S"),
                __stamp::field_attribute("units", "units", false, "N"),
                __stamp::field_attribute("revenue_cents", "revenue_cents", false, "N"),
                __stamp::field_attribute("first_sale_at", "first_sale_at", false, "S"),
                __stamp::field_attribute("last_sale_at", "last_sale_at", false, "S"),
            ],
            key_fields: &[
                __stamp::KeyField::new(
                    "sku",
                    <String as __stamp::KeyPart>::__stamp_example,
                ),
                __stamp::KeyField::new(
                    "day",
                    <NaiveDate as __stamp::KeyPart>::__stamp_example,
                ),
            ],
            created_at_attribute: ::core::option::Option::Some("first_sale_at"),
            updated_at_attribute: ::core::option::Option::Some("last_sale_at"),
            ..__stamp::SCHEMA
        };
        #[inline]
        fn primary_key(
            &self,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            Self::key(&self.sku, &self.day)
        }
        #[inline]
        fn encode_item_at(
            &self,
            __time: ::core::option::Option<::stamp::WriteTime>,
            __check: bool,
        ) -> ::core::result::Result<__stamp::ItemBuilder, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let (__partition_key, __sort_key) = <Self as ::stamp::Entity>::primary_key(
                    self,
                )?
                .into_parts();
            let mut __item = __stamp::codec::item(__schema, 6usize, __check);
            (&&&__stamp::codec::Field(&self.sku))
                .__stamp_insert(__schema, &mut __item, "sku")?;
            (&&&__stamp::codec::Field(&self.day))
                .__stamp_insert(__schema, &mut __item, "day")?;
            (&&&__stamp::codec::Field(&self.units))
                .__stamp_insert(__schema, &mut __item, "units")?;
            (&&&__stamp::codec::Field(&self.revenue_cents))
                .__stamp_insert(__schema, &mut __item, "revenue_cents")?;
            (&&&__stamp::codec::Field(&self.first_sale_at))
                .__stamp_insert(__schema, &mut __item, "first_sale_at")?;
            (&&&__stamp::codec::Field(&self.last_sale_at))
                .__stamp_insert(__schema, &mut __item, "last_sale_at")?;
            let _ = &__time;
            let __stamp_first_sale_at: DateTime<Utc> = match __time
                .filter(|__time| __time.creating)
            {
                ::core::option::Option::Some(__time) => {
                    __stamp::insert_encoded(
                        __schema,
                        &mut __item,
                        "first_sale_at",
                        ::stamp::Attribute::stored(
                            &ProductSales::FIRST_SALE_AT,
                            &__time.now,
                        ),
                    )?;
                    __time.now
                }
                ::core::option::Option::None => {
                    ::core::clone::Clone::clone(&self.first_sale_at)
                }
            };
            let __stamp_last_sale_at: DateTime<Utc> = match __time {
                ::core::option::Option::Some(__time) => {
                    __stamp::insert_encoded(
                        __schema,
                        &mut __item,
                        "last_sale_at",
                        ::stamp::Attribute::stored(
                            &ProductSales::LAST_SALE_AT,
                            &__time.now,
                        ),
                    )?;
                    __time.now
                }
                ::core::option::Option::None => {
                    ::core::clone::Clone::clone(&self.last_sale_at)
                }
            };
            __stamp::insert_key_string(&mut __item, "PK", __partition_key);
            __stamp::insert_key_string(&mut __item, "SK", __sort_key);
            __stamp::insert_string(
                &mut __item,
                "Type",
                ::std::string::String::from("ProductSales"),
            );
            ::core::result::Result::Ok(__item)
        }
        #[inline]
        fn from_item(
            #[allow(unused_mut)]
            mut item: ::stamp::AttributeMap,
        ) -> ::core::result::Result<Self, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let mut __slots = __stamp::codec::slots::<6>(__schema, item)?;
            ::core::result::Result::Ok(Self {
                sku: (&&&__stamp::codec::Decode::<String>::new())
                    .__stamp_field(__schema, "sku", __slots[0].take())?,
                day: (&&&__stamp::codec::Decode::<NaiveDate>::new())
                    .__stamp_field(__schema, "day", __slots[1].take())?,
                units: (&&&__stamp::codec::Decode::<u64>::new())
                    .__stamp_field(__schema, "units", __slots[2].take())?,
                revenue_cents: (&&&__stamp::codec::Decode::<u64>::new())
                    .__stamp_field(__schema, "revenue_cents", __slots[3].take())?,
                first_sale_at: (&&&__stamp::codec::Decode::<DateTime<Utc>>::new())
                    .__stamp_field(__schema, "first_sale_at", __slots[4].take())?,
                last_sale_at: (&&&__stamp::codec::Decode::<DateTime<Utc>>::new())
                    .__stamp_field(__schema, "last_sale_at", __slots[5].take())?,
            })
        }
        #[inline]
        fn time_stamp_value(
            __attribute: &str,
            __now: __stamp::chrono::DateTime<__stamp::chrono::Utc>,
        ) -> ::core::result::Result<
            ::core::option::Option<__stamp::AttributeValue>,
            ::stamp::Error,
        > {
            match __attribute {
                "first_sale_at" => {
                    ::stamp::Attribute::stored(&ProductSales::FIRST_SALE_AT, &__now)
                        .map_err(|__source| ::stamp::Error::Refused(::stamp::Refusal::Serialize {
                            entity: <Self as ::stamp::Entity>::SCHEMA.type_name,
                            source: __source,
                        }))
                }
                "last_sale_at" => {
                    ::stamp::Attribute::stored(&ProductSales::LAST_SALE_AT, &__now)
                        .map_err(|__source| ::stamp::Error::Refused(::stamp::Refusal::Serialize {
                            entity: <Self as ::stamp::Entity>::SCHEMA.type_name,
                            source: __source,
                        }))
                }
                _ => ::core::result::Result::Ok(::core::option::Option::None),
            }
        }
    }
    #[automatically_derived]
    impl ProductSales {
        ///Builds the primary key of a `ProductSales`: `PK` = `PRODUCT#<sku>`, `SK` = `SALES#<day>`. ([more](stamp::key#generated-functions))
        #[inline]
        pub fn key(
            sku: &str,
            day: &NaiveDate,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            __stamp::primary_key(
                &[__stamp::KeyArg::Str(sku)],
                &[<NaiveDate as __stamp::KeyPart>::__stamp_key_arg(day)],
            )
        }
        ///A query of `ProductSales` items on the table: `PK = PRODUCT#<sku>`, sort key `SK` = `SALES#<day>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn query(sku: &str) -> ::stamp::Query<Self, ::stamp::BaseTable> {
            __stamp::query(__stamp::At::Pk, &[__stamp::KeyArg::Str(sku)])
        }
        ///A scan of the whole table for `ProductSales` items (`Type` = `ProductSales`); nothing is sent until `stream`.
        #[inline]
        pub fn scan() -> ::stamp::Scan<Self> {
            ::stamp::Scan::new()
        }
        ///An update of the `ProductSales` item with this primary key, set through `ProductSales::FIELD` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn update(sku: &str, day: &NaiveDate) -> ::stamp::Update<Self> {
            #[allow(unused_mut)]
            let mut __known = ::stamp::AttributeMap::new();
            __stamp::know(&mut __known, &Self::SKU, &::std::string::String::from(sku));
            __stamp::know(&mut __known, &Self::DAY, day);
            ::stamp::Update::new(Self::key(sku, day)).with_known_values(__known)
        }
        ///An upsert of the `ProductSales` item with this primary key: `ProductSales::update(…).into_upsert()` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn upsert(sku: &str, day: &NaiveDate) -> ::stamp::Update<Self> {
            Self::update(sku, day).into_upsert()
        }
        ///Parses a `PK` value of `ProductSales` into its fields (sku) by the template `PRODUCT#<sku>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_partition_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::Pk, key)?;
            ::core::result::Result::Ok((
                <String as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///Parses a `SK` value of `ProductSales` into its fields (day) by the template `SALES#<day>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_sort_key(
            key: &str,
        ) -> ::core::result::Result<(NaiveDate,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::Sk, key)?;
            ::core::result::Result::Ok((
                <NaiveDate as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///The `sku` attribute of `ProductSales`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const SKU: ::stamp::Attribute<Self, String, ::stamp::PrimaryKeyField> = ::stamp::Attribute::with_encoder(
            "sku",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `day` attribute of `ProductSales`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const DAY: ::stamp::Attribute<Self, NaiveDate, ::stamp::PrimaryKeyField> = ::stamp::Attribute::with_encoder(
            "day",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `units` attribute of `ProductSales`, for conditions, filters and updates (an update may set it).
        pub const UNITS: ::stamp::Attribute<Self, u64, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "units",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `revenue_cents` attribute of `ProductSales`, for conditions, filters and updates (an update may set it).
        pub const REVENUE_CENTS: ::stamp::Attribute<Self, u64, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "revenue_cents",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `first_sale_at` attribute of `ProductSales`, for conditions, filters and updates (an update may set it).
        pub const FIRST_SALE_AT: ::stamp::Attribute<
            Self,
            DateTime<Utc>,
            ::stamp::Required,
        > = ::stamp::Attribute::with_encoder(
            "first_sale_at",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `last_sale_at` attribute of `ProductSales`, for conditions, filters and updates (an update may set it).
        pub const LAST_SALE_AT: ::stamp::Attribute<
            Self,
            DateTime<Utc>,
            ::stamp::Required,
        > = ::stamp::Attribute::with_encoder(
            "last_sale_at",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
    }
    #[automatically_derived]
    impl<'__a> ::stamp::SortKeyPrefix<ProductSales, ::stamp::BaseTable>
    for &'__a NaiveDate {
        #[inline]
        fn sort_key_prefix(
            &self,
        ) -> ::core::result::Result<::stamp::SortKeyText, ::stamp::Error> {
            let day = *self;
            __stamp::key_prefix(
                <ProductSales as ::stamp::Entity>::SCHEMA,
                __stamp::At::Sk,
                &[<NaiveDate as __stamp::KeyPart>::__stamp_key_arg(day)],
            )
        }
    }
};

// #[derive(Item)] Session
const _: () = {
    use ::stamp::__private as __stamp;
    #[allow(unused_imports)]
    use ::stamp::__private::codec::{
        DecodeBinary as _, DecodeDirect as _, DecodeSerde as _, EncodeBinary as _,
        EncodeDirect as _, EncodeSerde as _, SerdeFormAsStored as _,
        StoreAsSerialized as _, StoreBinary as _, StoreDirect as _,
    };
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_expires_at(
        __value: &DateTime<Utc>,
    ) -> ::core::result::Result<
        ::core::option::Option<__stamp::AttributeValue>,
        __stamp::serde_dynamo::Error,
    > {
        ::core::result::Result::Ok(
            ::core::option::Option::Some(
                __stamp::AttributeValue::N(
                    ::std::string::ToString::to_string(
                        &<DateTime<Utc> as ::stamp::TimeToLive>::epoch_seconds(__value),
                    ),
                ),
            ),
        )
    }
    #[automatically_derived]
    impl ::stamp::Entity for Session {
        const SCHEMA: &'static ::stamp::EntitySchema = &::stamp::EntitySchema {
            type_name: "Session",
            type_attribute: "Type",
            partition_key: __stamp::key_attribute(
                "PK",
                "SESSION#<token>",
                &[__stamp::L("SESSION#"), __stamp::F("token")],
            ),
            sort_key: __stamp::key_attribute("SK", "SESSION", &[__stamp::L("SESSION")]),
            fields: &["token", "customer_id", "expires_at"],
            field_attributes: &[
                __stamp::field_attribute("token", "token", false, "S"),
                __stamp::field_attribute("customer_id", "customer_id", false, "S"),
                __stamp::field_attribute("expires_at", "expires_at", false, "N"),
            ],
            key_fields: &[
                __stamp::KeyField::new(
                    "token",
                    <String as __stamp::KeyPart>::__stamp_example,
                ),
            ],
            ttl_attribute: ::core::option::Option::Some("expires_at"),
            ..__stamp::SCHEMA
        };
        #[inline]
        fn primary_key(
            &self,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            Self::key(&self.token)
        }
        #[inline]
        fn encode_item_at(
            &self,
            __time: ::core::option::Option<::stamp::WriteTime>,
            __check: bool,
        ) -> ::core::result::Result<__stamp::ItemBuilder, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let (__partition_key, __sort_key) = <Self as ::stamp::Entity>::primary_key(
                    self,
                )?
                .into_parts();
            let mut __item = __stamp::codec::item(__schema, 2usize, __check);
            (&&&__stamp::codec::Field(&self.token))
                .__stamp_insert(__schema, &mut __item, "token")?;
            (&&&__stamp::codec::Field(&self.customer_id))
                .__stamp_insert(__schema, &mut __item, "customer_id")?;
            let _ = &__time;
            __stamp::insert_key_string(&mut __item, "PK", __partition_key);
            __stamp::insert_key_string(&mut __item, "SK", __sort_key);
            __stamp::store_time_to_live(
                &mut __item,
                "expires_at",
                ::core::option::Option::Some(&self.expires_at),
                <DateTime<Utc> as ::stamp::TimeToLive>::epoch_seconds,
            );
            __stamp::insert_string(
                &mut __item,
                "Type",
                ::std::string::String::from("Session"),
            );
            ::core::result::Result::Ok(__item)
        }
        #[inline]
        fn from_item(
            #[allow(unused_mut)]
            mut item: ::stamp::AttributeMap,
        ) -> ::core::result::Result<Self, ::stamp::Error> {
            __stamp::load_time_to_live(
                <Self as ::stamp::Entity>::SCHEMA,
                &mut item,
                "expires_at",
                <DateTime<Utc> as ::stamp::TimeToLive>::from_epoch_seconds,
            )?;
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let mut __slots = __stamp::codec::slots::<3>(__schema, item)?;
            ::core::result::Result::Ok(Self {
                token: (&&&__stamp::codec::Decode::<String>::new())
                    .__stamp_field(__schema, "token", __slots[0].take())?,
                customer_id: (&&&__stamp::codec::Decode::<String>::new())
                    .__stamp_field(__schema, "customer_id", __slots[1].take())?,
                expires_at: (&&&__stamp::codec::Decode::<DateTime<Utc>>::new())
                    .__stamp_field(__schema, "expires_at", __slots[2].take())?,
            })
        }
    }
    #[automatically_derived]
    impl Session {
        ///Builds the primary key of a `Session`: `PK` = `SESSION#<token>`, `SK` = `SESSION`. ([more](stamp::key#generated-functions))
        #[inline]
        pub fn key(
            token: &str,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            __stamp::primary_key(&[__stamp::KeyArg::Str(token)], &[])
        }
        ///A query of `Session` items on the table: `PK = SESSION#<token>`, sort key `SK` = `SESSION` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn query(token: &str) -> ::stamp::Query<Self, ::stamp::BaseTable> {
            __stamp::query(__stamp::At::Pk, &[__stamp::KeyArg::Str(token)])
        }
        ///A scan of the whole table for `Session` items (`Type` = `Session`); nothing is sent until `stream`.
        #[inline]
        pub fn scan() -> ::stamp::Scan<Self> {
            ::stamp::Scan::new()
        }
        ///An update of the `Session` item with this primary key, set through `Session::FIELD` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn update(token: &str) -> ::stamp::Update<Self> {
            #[allow(unused_mut)]
            let mut __known = ::stamp::AttributeMap::new();
            __stamp::know(
                &mut __known,
                &Self::TOKEN,
                &::std::string::String::from(token),
            );
            ::stamp::Update::new(Self::key(token)).with_known_values(__known)
        }
        ///An upsert of the `Session` item with this primary key: `Session::update(…).into_upsert()` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn upsert(token: &str) -> ::stamp::Update<Self> {
            Self::update(token).into_upsert()
        }
        ///Parses a `PK` value of `Session` into its fields (token) by the template `SESSION#<token>` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_partition_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __key = __stamp::parse_key::<Self>(__stamp::At::Pk, key)?;
            ::core::result::Result::Ok((
                <String as __stamp::KeyPart>::__stamp_parse(&__key, 0usize)?,
            ))
        }
        ///Parses a `SK` value of `Session` into its fields (none: the template is a constant) by the template `SESSION` ([more](stamp::key#generated-functions)).
        #[inline]
        pub fn parse_sort_key(key: &str) -> ::core::result::Result<(), ::stamp::Error> {
            let _ = __stamp::parse_key::<Self>(__stamp::At::Sk, key)?;
            ::core::result::Result::Ok(())
        }
        ///The `token` attribute of `Session`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const TOKEN: ::stamp::Attribute<Self, String, ::stamp::PrimaryKeyField> = ::stamp::Attribute::with_encoder(
            "token",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `customer_id` attribute of `Session`, for conditions, filters and updates (an update may set it).
        pub const CUSTOMER_ID: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "customer_id",
            |__v| (&&&__stamp::codec::Field(__v)).__stamp_stored(),
        );
        ///The `expires_at` attribute of `Session`, for conditions, filters and updates (an update may set it).
        pub const EXPIRES_AT: ::stamp::Attribute<
            Self,
            DateTime<Utc>,
            ::stamp::Required,
        > = ::stamp::Attribute::with_encoder("expires_at", __stamp_encode_expires_at);
    }
};

// #[derive(Collection)] CustomerWithOrders
const _: () = {
    const _: () = ::core::assert!(
        ::stamp::__private::share_partition(< Customer as ::stamp::Entity > ::SCHEMA, <
        Order as ::stamp::Entity > ::SCHEMA, < ::stamp::BaseTable as ::stamp::QueryIndex
        > ::ID,),
        "the members of collection `CustomerWithOrders` must share one partition key template on the table, and `Order` does not share the one of `Customer`; for the change type of a stream over entities of different partitions (`Change<CustomerWithOrders>`, `Table::changes`), add `#[stamp(any_partition)]`: it decodes changes of any partition, and no query reads it"
    );
    #[automatically_derived]
    impl ::stamp::Collection for CustomerWithOrders {
        const NAME: &'static str = ::core::stringify!(CustomerWithOrders);
        type Index = ::stamp::BaseTable;
        const MEMBERS: &'static [&'static ::stamp::EntitySchema] = &[
            <Customer as ::stamp::Entity>::SCHEMA,
            <Order as ::stamp::Entity>::SCHEMA,
        ];
        fn from_item(
            item: ::stamp::AttributeMap,
        ) -> ::core::result::Result<Self, ::stamp::Error> {
            if ::stamp::__private::has_type(
                &item,
                <Customer as ::stamp::Entity>::SCHEMA,
            ) {
                return <Customer as ::stamp::Entity>::from_item(item)
                    .map(Self::Customer);
            }
            if ::stamp::__private::has_type(&item, <Order as ::stamp::Entity>::SCHEMA) {
                return <Order as ::stamp::Entity>::from_item(item).map(Self::Order);
            }
            ::core::result::Result::Ok(Self::Unknown(item))
        }
    }
    #[automatically_derived]
    impl ::stamp::CollectionMember<CustomerWithOrders> for Customer {}
    #[automatically_derived]
    impl ::stamp::CollectionMember<CustomerWithOrders> for Order {}
};

// #[derive(Collection)] OrderWithItems
const _: () = {
    const _: () = ::core::assert!(
        ::stamp::__private::share_partition(< Order as ::stamp::Entity > ::SCHEMA, <
        LineItem as ::stamp::Entity > ::SCHEMA, < ::stamp::Gsi < 2u8 > as
        ::stamp::QueryIndex > ::ID,),
        "the members of collection `OrderWithItems` must share one partition key template on GSI2, and `LineItem` does not share the one of `Order`; for the change type of a stream over entities of different partitions (`Change<OrderWithItems>`, `Table::changes`), add `#[stamp(any_partition)]` in place of `index = 2`: it decodes changes of any partition, and no query reads it"
    );
    #[automatically_derived]
    impl ::stamp::Collection for OrderWithItems {
        const NAME: &'static str = ::core::stringify!(OrderWithItems);
        type Index = ::stamp::Gsi<2u8>;
        const MEMBERS: &'static [&'static ::stamp::EntitySchema] = &[
            <Order as ::stamp::Entity>::SCHEMA,
            <LineItem as ::stamp::Entity>::SCHEMA,
        ];
        fn from_item(
            item: ::stamp::AttributeMap,
        ) -> ::core::result::Result<Self, ::stamp::Error> {
            if ::stamp::__private::has_type(&item, <Order as ::stamp::Entity>::SCHEMA) {
                return <Order as ::stamp::Entity>::from_item(item).map(Self::Order);
            }
            if ::stamp::__private::has_type(
                &item,
                <LineItem as ::stamp::Entity>::SCHEMA,
            ) {
                return <LineItem as ::stamp::Entity>::from_item(item)
                    .map(Self::LineItem);
            }
            ::core::result::Result::Ok(Self::Unknown(item))
        }
    }
    #[automatically_derived]
    impl ::stamp::CollectionMember<OrderWithItems> for Order {}
    #[automatically_derived]
    impl ::stamp::CollectionMember<OrderWithItems> for LineItem {}
};

