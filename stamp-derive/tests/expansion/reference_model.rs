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
    #[allow(unused_imports)]
    use ::stamp::__private::codec::{
        DecodeBinary as _, DecodeDirect as _, DecodeSerde as _, EncodeBinary as _,
        EncodeDirect as _, EncodeSerde as _, SerdeFormAsStored as _,
        StoreAsSerialized as _, StoreBinary as _, StoreDirect as _,
    };
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_customer_id(
        __value: &String,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_name(
        __value: &String,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_email(
        __value: &String,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_order_count(
        __value: &u32,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_created_at(
        __value: &DateTime<Utc>,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[automatically_derived]
    impl ::stamp::Entity for Customer {
        const SCHEMA: &'static ::stamp::EntitySchema = &::stamp::EntitySchema {
            type_name: "Customer",
            type_attribute: "Type",
            partition_key: ::stamp::KeyAttribute {
                name: "PK",
                template: ::stamp::KeyTemplate {
                    source: "CUST#<customer_id>",
                    segments: &[
                        ::stamp::Segment::Literal("CUST#"),
                        ::stamp::Segment::Field("customer_id"),
                    ],
                    escaped: ::stamp::KeyTemplate::ESCAPED,
                },
            },
            sort_key: ::stamp::KeyAttribute {
                name: "SK",
                template: ::stamp::KeyTemplate {
                    source: "PROFILE",
                    segments: &[::stamp::Segment::Literal("PROFILE")],
                    escaped: ::stamp::KeyTemplate::ESCAPED,
                },
            },
            indexes: &[],
            fields: &["customer_id", "name", "email", "order_count", "created_at"],
            ttl_attribute: ::core::option::Option::None,
            field_attributes: &[
                ::stamp::FieldAttribute {
                    field: "customer_id",
                    attribute: "customer_id",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "name",
                    attribute: "name",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "email",
                    attribute: "email",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "order_count",
                    attribute: "order_count",
                    optional: false,
                    stored_type: ::core::option::Option::Some("N"),
                },
                ::stamp::FieldAttribute {
                    field: "created_at",
                    attribute: "created_at",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
            ],
            version_attribute: ::core::option::Option::None,
            created_at_attribute: ::core::option::Option::None,
            updated_at_attribute: ::core::option::Option::None,
            previous_key: ::core::option::Option::None,
            key_example: {
                #[inline]
                fn __key_example(
                    __field: &str,
                ) -> ::core::option::Option<::std::string::String> {
                    match __field {
                        "customer_id" => {
                            ::stamp::__private::key_example(
                                "customer_id",
                                <String as ::stamp::KeyPart>::example,
                                <String as ::stamp::KeyPart>::encode_key,
                            )
                        }
                        _ => ::core::option::Option::None,
                    }
                }
                __key_example
            },
            named_inputs: &[],
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
        ) -> ::core::result::Result<::stamp::__private::ItemBuilder, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let (__partition_key, __sort_key) = <Self as ::stamp::Entity>::primary_key(
                    self,
                )?
                .into_parts();
            let mut __item = ::stamp::__private::codec::item(__schema, 5usize, __check);
            (&&&::stamp::__private::codec::Field(&self.customer_id))
                .__stamp_insert(__schema, &mut __item, "customer_id")?;
            (&&&::stamp::__private::codec::Field(&self.name))
                .__stamp_insert(__schema, &mut __item, "name")?;
            (&&&::stamp::__private::codec::Field(&self.email))
                .__stamp_insert(__schema, &mut __item, "email")?;
            (&&&::stamp::__private::codec::Field(&self.order_count))
                .__stamp_insert(__schema, &mut __item, "order_count")?;
            (&&&::stamp::__private::codec::Field(&self.created_at))
                .__stamp_insert(__schema, &mut __item, "created_at")?;
            let _ = &__time;
            ::stamp::__private::insert_key_string(&mut __item, "PK", __partition_key);
            ::stamp::__private::insert_key_string(&mut __item, "SK", __sort_key);
            ::stamp::__private::insert_string(
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
            ::stamp::__private::codec::check_type(__schema, &item)?;
            let mut __stamp_field_0: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_1: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_2: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_3: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_4: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            for (__name, __stored) in item {
                match __name.as_str() {
                    "customer_id" => {
                        __stamp_field_0 = ::core::option::Option::Some(__stored);
                    }
                    "name" => __stamp_field_1 = ::core::option::Option::Some(__stored),
                    "email" => __stamp_field_2 = ::core::option::Option::Some(__stored),
                    "order_count" => {
                        __stamp_field_3 = ::core::option::Option::Some(__stored);
                    }
                    "created_at" => {
                        __stamp_field_4 = ::core::option::Option::Some(__stored);
                    }
                    _ => {}
                }
            }
            ::core::result::Result::Ok(Self {
                customer_id: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<String>::new())
                        .__stamp_decode("customer_id", __stamp_field_0),
                )?,
                name: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<String>::new())
                        .__stamp_decode("name", __stamp_field_1),
                )?,
                email: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<String>::new())
                        .__stamp_decode("email", __stamp_field_2),
                )?,
                order_count: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<u32>::new())
                        .__stamp_decode("order_count", __stamp_field_3),
                )?,
                created_at: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<DateTime<Utc>>::new())
                        .__stamp_decode("created_at", __stamp_field_4),
                )?,
            })
        }
        #[inline]
        fn key_attribute_from_values(
            __attribute: &str,
            __values: &::stamp::AttributeMap,
        ) -> ::core::result::Result<
            ::core::option::Option<::std::string::String>,
            ::stamp::Error,
        > {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let _ = (&__schema, &__values);
            match __attribute {
                _ => ::core::result::Result::Ok(::core::option::Option::None),
            }
        }
    }
    #[automatically_derived]
    impl Customer {
        /**Builds the primary key of a `Customer`: `PK` = `CUST#<customer_id>`, `SK` = `PROFILE`.

# Errors

`stamp::KeyError::EmptyKeyValue` when a field encodes to the empty string; `stamp::KeyError::KeyEncode` when a field has no key encoding.*/
        #[inline]
        pub fn key(
            customer_id: &str,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema.partition_key.template,
                    __schema.partition_key.template.literal_len() + customer_id.len(),
                );
                __builder.literal("CUST#");
                __builder.str_field("customer_id", customer_id)?;
                __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
            };
            let __sort_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema.sort_key.template,
                    __schema.sort_key.template.literal_len(),
                );
                __builder.literal("PROFILE");
                __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
            };
            ::core::result::Result::Ok(
                ::stamp::PrimaryKey::from_parts(__partition_key, __sort_key),
            )
        }
        /**A query of `Customer` items on the table: `PK = CUST#<customer_id>` and the sort key `SK` within `PROFILE`.

Add a sort-key condition with `sort_key_eq`, `sort_key_lt`, `sort_key_between`, … on a leading prefix of the sort-key fields; nothing is sent until `send`, `stream` or `count`.*/
        #[inline]
        pub fn query(customer_id: &str) -> ::stamp::Query<Self, ::stamp::BaseTable> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = (|| -> ::core::result::Result<
                ::std::string::String,
                ::stamp::Error,
            > {
                ::core::result::Result::Ok({
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema.partition_key.template,
                        __schema.partition_key.template.literal_len() + customer_id.len(),
                    );
                    __builder.literal("CUST#");
                    __builder.str_field("customer_id", customer_id)?;
                    __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                })
            })();
            ::stamp::Query::new(__partition_key)
        }
        ///A scan of the table for `Customer` items (type attribute `Type` = `Customer`): reads every item of the table. Nothing is sent until `stream`.
        #[inline]
        pub fn scan() -> ::stamp::Scan<Self> {
            ::stamp::Scan::new()
        }
        ///An update of the `Customer` item with this primary key. Set fields through the attribute constants (`Customer::FIELD`); index attributes and `updated_at` are rewritten in the same request. Nothing is sent until `send`.
        #[inline]
        pub fn update(customer_id: &str) -> ::stamp::Update<Self> {
            #[allow(unused_mut)]
            let mut __known = ::stamp::AttributeMap::new();
            if let ::core::result::Result::Ok(::core::option::Option::Some(__value)) = __stamp_encode_customer_id(
                &::std::string::String::from(customer_id),
            ) {
                __known.insert(::std::string::String::from("customer_id"), __value);
            }
            ::stamp::Update::new(Self::key(customer_id)).with_known_values(__known)
        }
        /**Parses a `PK` value of `Customer` back into its fields (customer_id), following the template `CUST#<customer_id>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_partition_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema
                .partition_key
                .template
                .split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "customer_id",
                    key,
                    &__segments[0usize],
                    <String as ::stamp::KeyPart>::decode_key,
                    <String as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        /**Parses a `SK` value of `Customer` back into its fields (none: the template is a constant), following the template `PROFILE`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_sort_key(key: &str) -> ::core::result::Result<(), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema.sort_key.template.split(__schema.type_name, key)?;
            let _ = &__segments;
            ::core::result::Result::Ok(())
        }
        ///The `customer_id` attribute of `Customer`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const CUSTOMER_ID: ::stamp::Attribute<
            Self,
            String,
            ::stamp::PrimaryKeyField,
        > = ::stamp::Attribute::with_encoder("customer_id", __stamp_encode_customer_id);
        ///The `name` attribute of `Customer`, for conditions, filters and updates (an update may set it).
        pub const NAME: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "name",
            __stamp_encode_name,
        );
        ///The `email` attribute of `Customer`, for conditions, filters and updates (an update may set it).
        pub const EMAIL: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "email",
            __stamp_encode_email,
        );
        ///The `order_count` attribute of `Customer`, for conditions, filters and updates (an update may set it).
        pub const ORDER_COUNT: ::stamp::Attribute<Self, u32, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "order_count",
            __stamp_encode_order_count,
        );
        ///The `created_at` attribute of `Customer`, for conditions, filters and updates (an update may set it).
        pub const CREATED_AT: ::stamp::Attribute<
            Self,
            DateTime<Utc>,
            ::stamp::Required,
        > = ::stamp::Attribute::with_encoder("created_at", __stamp_encode_created_at);
    }
};

// #[derive(Item)] Order
const _: () = {
    #[allow(unused_imports)]
    use ::stamp::__private::codec::{
        DecodeBinary as _, DecodeDirect as _, DecodeSerde as _, EncodeBinary as _,
        EncodeDirect as _, EncodeSerde as _, SerdeFormAsStored as _,
        StoreAsSerialized as _, StoreBinary as _, StoreDirect as _,
    };
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_customer_id(
        __value: &String,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_order_id(
        __value: &Uuid,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_created_at(
        __value: &DateTime<Utc>,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_created_month(
        __value: &String,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_status(
        __value: &OrderStatus,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_updated_at(
        __value: &DateTime<Utc>,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_total_cents(
        __value: &u64,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_line_count(
        __value: &u32,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_embedding(
        __value: &Vec<f32>,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_decode_status(
        __stored: ::core::option::Option<&::stamp::__private::AttributeValue>,
    ) -> ::core::result::Result<
        Option<OrderStatus>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        (&&&::stamp::__private::codec::Decode::<Option<OrderStatus>>::new())
            .__stamp_decode("status", ::stamp::__private::codec::present(__stored))
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_decode_updated_at(
        __stored: ::core::option::Option<&::stamp::__private::AttributeValue>,
    ) -> ::core::result::Result<DateTime<Utc>, ::stamp::__private::serde_dynamo::Error> {
        (&&&::stamp::__private::codec::Decode::<DateTime<Utc>>::new())
            .__stamp_decode("updated_at", ::stamp::__private::codec::present(__stored))
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_decode_order_id(
        __stored: ::core::option::Option<&::stamp::__private::AttributeValue>,
    ) -> ::core::result::Result<Uuid, ::stamp::__private::serde_dynamo::Error> {
        (&&&::stamp::__private::codec::Decode::<Uuid>::new())
            .__stamp_decode("order_id", ::stamp::__private::codec::present(__stored))
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_decode_customer_id(
        __stored: ::core::option::Option<&::stamp::__private::AttributeValue>,
    ) -> ::core::result::Result<String, ::stamp::__private::serde_dynamo::Error> {
        (&&&::stamp::__private::codec::Decode::<String>::new())
            .__stamp_decode("customer_id", ::stamp::__private::codec::present(__stored))
    }
    #[automatically_derived]
    impl ::stamp::Entity for Order {
        const SCHEMA: &'static ::stamp::EntitySchema = &::stamp::EntitySchema {
            type_name: "Order",
            type_attribute: "Type",
            partition_key: ::stamp::KeyAttribute {
                name: "PK",
                template: ::stamp::KeyTemplate {
                    source: "CUST#<customer_id>",
                    segments: &[
                        ::stamp::Segment::Literal("CUST#"),
                        ::stamp::Segment::Field("customer_id"),
                    ],
                    escaped: ::stamp::KeyTemplate::ESCAPED,
                },
            },
            sort_key: ::stamp::KeyAttribute {
                name: "SK",
                template: ::stamp::KeyTemplate {
                    source: "ORDER#<created_at>#<order_id>",
                    segments: &[
                        ::stamp::Segment::Literal("ORDER#"),
                        ::stamp::Segment::Field("created_at"),
                        ::stamp::Segment::Literal("#"),
                        ::stamp::Segment::Field("order_id"),
                    ],
                    escaped: ::stamp::KeyTemplate::ESCAPED,
                },
            },
            indexes: &[
                ::stamp::IndexSchema {
                    number: 1u8,
                    name: "GSI1",
                    kind: ::stamp::IndexKind::Global {
                        shards: ::core::option::Option::Some(16u16),
                    },
                    read_method: "query_gsi1",
                    key: ::stamp::IndexKeySchema::Templates {
                        partition_key: ::stamp::KeyAttribute {
                            name: "GSI1PK",
                            template: ::stamp::KeyTemplate {
                                source: "STATUS#<status>#<shard>",
                                segments: &[
                                    ::stamp::Segment::Literal("STATUS#"),
                                    ::stamp::Segment::Field("status"),
                                    ::stamp::Segment::Literal("#"),
                                    ::stamp::Segment::Shard(16u16),
                                ],
                                escaped: ::stamp::KeyTemplate::ESCAPED,
                            },
                        },
                        sort_key: ::core::option::Option::Some(::stamp::KeyAttribute {
                            name: "GSI1SK",
                            template: ::stamp::KeyTemplate {
                                source: "<updated_at>",
                                segments: &[::stamp::Segment::Field("updated_at")],
                                escaped: ::stamp::KeyTemplate::ESCAPED,
                            },
                        }),
                    },
                },
                ::stamp::IndexSchema {
                    number: 2u8,
                    name: "GSI2",
                    kind: ::stamp::IndexKind::Global {
                        shards: ::core::option::Option::None,
                    },
                    read_method: "query_gsi2",
                    key: ::stamp::IndexKeySchema::Templates {
                        partition_key: ::stamp::KeyAttribute {
                            name: "GSI2PK",
                            template: ::stamp::KeyTemplate {
                                source: "ORDER#<order_id>",
                                segments: &[
                                    ::stamp::Segment::Literal("ORDER#"),
                                    ::stamp::Segment::Field("order_id"),
                                ],
                                escaped: ::stamp::KeyTemplate::ESCAPED,
                            },
                        },
                        sort_key: ::core::option::Option::Some(::stamp::KeyAttribute {
                            name: "GSI2SK",
                            template: ::stamp::KeyTemplate {
                                source: "ORDER",
                                segments: &[::stamp::Segment::Literal("ORDER")],
                                escaped: ::stamp::KeyTemplate::ESCAPED,
                            },
                        }),
                    },
                },
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
                        partition_key: ::stamp::KeyAttribute {
                            name: "VECTOR2PK",
                            template: ::stamp::KeyTemplate {
                                source: "CUST#<customer_id>",
                                segments: &[
                                    ::stamp::Segment::Literal("CUST#"),
                                    ::stamp::Segment::Field("customer_id"),
                                ],
                                escaped: ::stamp::KeyTemplate::ESCAPED,
                            },
                        },
                        sort_key: ::core::option::Option::None,
                    },
                },
            ],
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
            ttl_attribute: ::core::option::Option::None,
            field_attributes: &[
                ::stamp::FieldAttribute {
                    field: "customer_id",
                    attribute: "customer_id",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "order_id",
                    attribute: "order_id",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "created_at",
                    attribute: "created_at",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "created_month",
                    attribute: "created_month",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "status",
                    attribute: "status",
                    optional: true,
                    stored_type: ::core::option::Option::None,
                },
                ::stamp::FieldAttribute {
                    field: "updated_at",
                    attribute: "updated_at",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "total_cents",
                    attribute: "total_cents",
                    optional: false,
                    stored_type: ::core::option::Option::Some("N"),
                },
                ::stamp::FieldAttribute {
                    field: "line_count",
                    attribute: "line_count",
                    optional: false,
                    stored_type: ::core::option::Option::Some("N"),
                },
                ::stamp::FieldAttribute {
                    field: "embedding",
                    attribute: "order_embedding",
                    optional: false,
                    stored_type: ::core::option::Option::Some("L"),
                },
            ],
            version_attribute: ::core::option::Option::None,
            created_at_attribute: ::core::option::Option::None,
            updated_at_attribute: ::core::option::Option::None,
            previous_key: ::core::option::Option::None,
            key_example: {
                #[inline]
                fn __key_example(
                    __field: &str,
                ) -> ::core::option::Option<::std::string::String> {
                    match __field {
                        "customer_id" => {
                            ::stamp::__private::key_example(
                                "customer_id",
                                <String as ::stamp::KeyPart>::example,
                                <String as ::stamp::KeyPart>::encode_key,
                            )
                        }
                        "created_at" => {
                            ::stamp::__private::key_example(
                                "created_at",
                                <DateTime<Utc> as ::stamp::KeyPart>::example,
                                <DateTime<Utc> as ::stamp::KeyPart>::encode_key,
                            )
                        }
                        "order_id" => {
                            ::stamp::__private::key_example(
                                "order_id",
                                <Uuid as ::stamp::KeyPart>::example,
                                <Uuid as ::stamp::KeyPart>::encode_key,
                            )
                        }
                        "status" => {
                            ::stamp::__private::key_example(
                                "status",
                                <OrderStatus as ::stamp::KeyPart>::example,
                                <OrderStatus as ::stamp::KeyPart>::encode_key,
                            )
                        }
                        "updated_at" => {
                            ::stamp::__private::key_example(
                                "updated_at",
                                <DateTime<Utc> as ::stamp::KeyPart>::example,
                                <DateTime<Utc> as ::stamp::KeyPart>::encode_key,
                            )
                        }
                        _ => ::core::option::Option::None,
                    }
                }
                __key_example
            },
            named_inputs: &[],
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
        ) -> ::core::result::Result<::stamp::__private::ItemBuilder, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let (__partition_key, __sort_key) = <Self as ::stamp::Entity>::primary_key(
                    self,
                )?
                .into_parts();
            let __shard_1 = ::stamp::shard_of(&__partition_key, &__sort_key, 16u16);
            let mut __item = ::stamp::__private::codec::item(__schema, 9usize, __check);
            (&&&::stamp::__private::codec::Field(&self.customer_id))
                .__stamp_insert(__schema, &mut __item, "customer_id")?;
            (&&&::stamp::__private::codec::Field(&self.order_id))
                .__stamp_insert(__schema, &mut __item, "order_id")?;
            (&&&::stamp::__private::codec::Field(&self.created_at))
                .__stamp_insert(__schema, &mut __item, "created_at")?;
            (&&&::stamp::__private::codec::Field(&self.created_month))
                .__stamp_insert(__schema, &mut __item, "created_month")?;
            (&&&::stamp::__private::codec::Field(&self.status))
                .__stamp_insert(__schema, &mut __item, "status")?;
            (&&&::stamp::__private::codec::Field(&self.updated_at))
                .__stamp_insert(__schema, &mut __item, "updated_at")?;
            (&&&::stamp::__private::codec::Field(&self.total_cents))
                .__stamp_insert(__schema, &mut __item, "total_cents")?;
            (&&&::stamp::__private::codec::Field(&self.line_count))
                .__stamp_insert(__schema, &mut __item, "line_count")?;
            (&&&::stamp::__private::codec::Field(&self.embedding))
                .__stamp_insert(__schema, &mut __item, "order_embedding")?;
            let _ = &__time;
            ::stamp::__private::insert_key_string(&mut __item, "PK", __partition_key);
            ::stamp::__private::insert_key_string(&mut __item, "SK", __sort_key);
            if let (::core::option::Option::Some(__value_status),) = (&self.status,) {
                let (__partition_key, __sort_key) = Self::gsi1_key(
                        __value_status,
                        &self.updated_at,
                        __shard_1,
                    )?
                    .into_parts();
                ::stamp::__private::insert_key_string(
                    &mut __item,
                    "GSI1PK",
                    __partition_key,
                );
                if let ::core::option::Option::Some(__sort_key) = __sort_key {
                    ::stamp::__private::insert_key_string(
                        &mut __item,
                        "GSI1SK",
                        __sort_key,
                    );
                }
            }
            {
                let (__partition_key, __sort_key) = Self::gsi2_key(&self.order_id)?
                    .into_parts();
                ::stamp::__private::insert_key_string(
                    &mut __item,
                    "GSI2PK",
                    __partition_key,
                );
                if let ::core::option::Option::Some(__sort_key) = __sort_key {
                    ::stamp::__private::insert_key_string(
                        &mut __item,
                        "GSI2SK",
                        __sort_key,
                    );
                }
            }
            if ::stamp::__private::check_vector_attribute(
                __schema,
                &__schema.indexes[2usize],
                &__item,
            )? {
                let customer_id = &self.customer_id;
                let __vector_partition: ::std::string::String = {
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema
                            .indexes[2usize]
                            .partition_template()
                            .expect("a vector index partitioned by a template"),
                        __schema
                            .indexes[2usize]
                            .partition_template()
                            .expect("a vector index partitioned by a template")
                            .literal_len() + customer_id.len(),
                    );
                    __builder.literal("CUST#");
                    __builder.str_field("customer_id", customer_id)?;
                    __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                };
                ::stamp::__private::insert_key_string(
                    &mut __item,
                    "VECTOR2PK",
                    __vector_partition,
                );
            }
            ::stamp::__private::insert_string(
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
            ::stamp::__private::codec::check_type(__schema, &item)?;
            let mut __stamp_field_0: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_1: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_2: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_3: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_4: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_5: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_6: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_7: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_8: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            for (__name, __stored) in item {
                match __name.as_str() {
                    "customer_id" => {
                        __stamp_field_0 = ::core::option::Option::Some(__stored);
                    }
                    "order_id" => {
                        __stamp_field_1 = ::core::option::Option::Some(__stored);
                    }
                    "created_at" => {
                        __stamp_field_2 = ::core::option::Option::Some(__stored);
                    }
                    "created_month" => {
                        __stamp_field_3 = ::core::option::Option::Some(__stored);
                    }
                    "status" => __stamp_field_4 = ::core::option::Option::Some(__stored),
                    "updated_at" => {
                        __stamp_field_5 = ::core::option::Option::Some(__stored);
                    }
                    "total_cents" => {
                        __stamp_field_6 = ::core::option::Option::Some(__stored);
                    }
                    "line_count" => {
                        __stamp_field_7 = ::core::option::Option::Some(__stored);
                    }
                    "order_embedding" => {
                        __stamp_field_8 = ::core::option::Option::Some(__stored);
                    }
                    _ => {}
                }
            }
            ::core::result::Result::Ok(Self {
                customer_id: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<String>::new())
                        .__stamp_decode("customer_id", __stamp_field_0),
                )?,
                order_id: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<Uuid>::new())
                        .__stamp_decode("order_id", __stamp_field_1),
                )?,
                created_at: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<DateTime<Utc>>::new())
                        .__stamp_decode("created_at", __stamp_field_2),
                )?,
                created_month: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<String>::new())
                        .__stamp_decode("created_month", __stamp_field_3),
                )?,
                status: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<Option<OrderStatus>>::new())
                        .__stamp_decode("status", __stamp_field_4),
                )?,
                updated_at: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<DateTime<Utc>>::new())
                        .__stamp_decode("updated_at", __stamp_field_5),
                )?,
                total_cents: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<u64>::new())
                        .__stamp_decode("total_cents", __stamp_field_6),
                )?,
                line_count: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<u32>::new())
                        .__stamp_decode("line_count", __stamp_field_7),
                )?,
                embedding: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<Vec<f32>>::new())
                        .__stamp_decode("order_embedding", __stamp_field_8),
                )?,
            })
        }
        #[inline]
        fn key_attribute_from_values(
            __attribute: &str,
            __values: &::stamp::AttributeMap,
        ) -> ::core::result::Result<
            ::core::option::Option<::std::string::String>,
            ::stamp::Error,
        > {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let _ = (&__schema, &__values);
            match __attribute {
                "GSI1PK" => {
                    let __shard = match (__values.get("PK"), __values.get("SK")) {
                        (
                            ::core::option::Option::Some(
                                ::stamp::__private::AttributeValue::S(__pk),
                            ),
                            ::core::option::Option::Some(
                                ::stamp::__private::AttributeValue::S(__sk),
                            ),
                        ) => ::stamp::shard_of(__pk, __sk, 16u16),
                        _ => {
                            return ::core::result::Result::Err(
                                ::stamp::Error::Refused(::stamp::Refusal::InvalidUpdate {
                                    entity: __schema.type_name,
                                    reason: ::stamp::UpdateReason::ShardNeedsPrimaryKey,
                                }),
                            );
                        }
                    };
                    let status: OrderStatus = match ::stamp::__private::codec::decoded(
                        __schema,
                        __stamp_decode_status(__values.get("status")),
                    )? {
                        ::core::option::Option::Some(__value) => __value,
                        ::core::option::Option::None => {
                            return ::core::result::Result::Ok(
                                ::core::option::Option::None,
                            );
                        }
                    };
                    let status = &status;
                    ::core::result::Result::Ok(
                        ::core::option::Option::Some({
                            let mut __builder = ::stamp::__private::KeyBuilder::new(
                                __schema.type_name,
                                &__schema
                                    .indexes[0usize]
                                    .partition_template()
                                    .expect("a template index"),
                                __schema
                                    .indexes[0usize]
                                    .partition_template()
                                    .expect("a template index")
                                    .literal_len() + <OrderStatus as ::stamp::KeyPart>::LEN_HINT
                                    + 2,
                            );
                            __builder.literal("STATUS#");
                            __builder.field::<OrderStatus>("status", status)?;
                            __builder.literal("#");
                            __builder.shard(__shard);
                            __builder
                                .finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                        }),
                    )
                }
                "GSI1SK" => {
                    let updated_at: DateTime<Utc> = ::stamp::__private::codec::decoded(
                        __schema,
                        __stamp_decode_updated_at(__values.get("updated_at")),
                    )?;
                    let updated_at = &updated_at;
                    ::core::result::Result::Ok(
                        ::core::option::Option::Some({
                            let mut __builder = ::stamp::__private::KeyBuilder::new(
                                __schema.type_name,
                                &__schema
                                    .indexes[0usize]
                                    .sort_template()
                                    .expect("the index has a sort key"),
                                __schema
                                    .indexes[0usize]
                                    .sort_template()
                                    .expect("the index has a sort key")
                                    .literal_len()
                                    + <DateTime<Utc> as ::stamp::KeyPart>::LEN_HINT,
                            );
                            __builder.field::<DateTime<Utc>>("updated_at", updated_at)?;
                            __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
                        }),
                    )
                }
                "GSI2PK" => {
                    let order_id: Uuid = ::stamp::__private::codec::decoded(
                        __schema,
                        __stamp_decode_order_id(__values.get("order_id")),
                    )?;
                    let order_id = &order_id;
                    ::core::result::Result::Ok(
                        ::core::option::Option::Some({
                            let mut __builder = ::stamp::__private::KeyBuilder::new(
                                __schema.type_name,
                                &__schema
                                    .indexes[1usize]
                                    .partition_template()
                                    .expect("a template index"),
                                __schema
                                    .indexes[1usize]
                                    .partition_template()
                                    .expect("a template index")
                                    .literal_len() + <Uuid as ::stamp::KeyPart>::LEN_HINT,
                            );
                            __builder.literal("ORDER#");
                            __builder.field::<Uuid>("order_id", order_id)?;
                            __builder
                                .finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                        }),
                    )
                }
                "GSI2SK" => {
                    ::core::result::Result::Ok(
                        ::core::option::Option::Some({
                            let mut __builder = ::stamp::__private::KeyBuilder::new(
                                __schema.type_name,
                                &__schema
                                    .indexes[1usize]
                                    .sort_template()
                                    .expect("the index has a sort key"),
                                __schema
                                    .indexes[1usize]
                                    .sort_template()
                                    .expect("the index has a sort key")
                                    .literal_len(),
                            );
                            __builder.literal("ORDER");
                            __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
                        }),
                    )
                }
                "VECTOR2PK" => {
                    let customer_id: String = ::stamp::__private::codec::decoded(
                        __schema,
                        __stamp_decode_customer_id(__values.get("customer_id")),
                    )?;
                    let customer_id = &customer_id;
                    ::core::result::Result::Ok(
                        ::core::option::Option::Some({
                            let mut __builder = ::stamp::__private::KeyBuilder::new(
                                __schema.type_name,
                                &__schema
                                    .indexes[2usize]
                                    .partition_template()
                                    .expect("a vector index partitioned by a template"),
                                __schema
                                    .indexes[2usize]
                                    .partition_template()
                                    .expect("a vector index partitioned by a template")
                                    .literal_len() + customer_id.len(),
                            );
                            __builder.literal("CUST#");
                            __builder.str_field("customer_id", customer_id)?;
                            __builder
                                .finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                        }),
                    )
                }
                _ => ::core::result::Result::Ok(::core::option::Option::None),
            }
        }
    }
    #[automatically_derived]
    impl Order {
        /**Builds the primary key of a `Order`: `PK` = `CUST#<customer_id>`, `SK` = `ORDER#<created_at>#<order_id>`.

# Errors

`stamp::KeyError::EmptyKeyValue` when a field encodes to the empty string; `stamp::KeyError::KeyEncode` when a field has no key encoding.*/
        #[inline]
        pub fn key(
            customer_id: &str,
            created_at: &DateTime<Utc>,
            order_id: &Uuid,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema.partition_key.template,
                    __schema.partition_key.template.literal_len() + customer_id.len(),
                );
                __builder.literal("CUST#");
                __builder.str_field("customer_id", customer_id)?;
                __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
            };
            let __sort_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema.sort_key.template,
                    __schema.sort_key.template.literal_len()
                        + <DateTime<Utc> as ::stamp::KeyPart>::LEN_HINT
                        + <Uuid as ::stamp::KeyPart>::LEN_HINT,
                );
                __builder.literal("ORDER#");
                __builder.field::<DateTime<Utc>>("created_at", created_at)?;
                __builder.literal("#");
                __builder.field::<Uuid>("order_id", order_id)?;
                __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
            };
            ::core::result::Result::Ok(
                ::stamp::PrimaryKey::from_parts(__partition_key, __sort_key),
            )
        }
        /**Builds the key of a `Order` in index `GSI1`: `GSI1PK` = `STATUS#<status>#<shard>`, `GSI1SK` = `<updated_at>`.

The index is sharded over 16 partition keys: `shard` (0 to 15) is the item's shard, `stamp::shard_of(PK, SK, 16)` of its primary key; `stamp::KeyError::InvalidShard` for another.

# Errors

`stamp::KeyError::EmptyKeyValue` when a field encodes to the empty string; `stamp::KeyError::KeyEncode` when a field has no key encoding.*/
        #[inline]
        pub fn gsi1_key(
            status: &OrderStatus,
            updated_at: &DateTime<Utc>,
            shard: u16,
        ) -> ::core::result::Result<::stamp::IndexKey<Self>, ::stamp::Error> {
            let __shard = shard;
            if __shard >= 16u16 {
                return ::core::result::Result::Err(
                    ::stamp::Error::Key(::stamp::KeyError::InvalidShard {
                        entity: <Self as ::stamp::Entity>::SCHEMA.type_name,
                        index: <Self as ::stamp::Entity>::SCHEMA.indexes[0usize].name,
                        shard: __shard,
                        shards: 16u16,
                    }),
                );
            }
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema
                        .indexes[0usize]
                        .partition_template()
                        .expect("a template index"),
                    __schema
                        .indexes[0usize]
                        .partition_template()
                        .expect("a template index")
                        .literal_len() + <OrderStatus as ::stamp::KeyPart>::LEN_HINT + 2,
                );
                __builder.literal("STATUS#");
                __builder.field::<OrderStatus>("status", status)?;
                __builder.literal("#");
                __builder.shard(__shard);
                __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
            };
            let __sort_key = ::core::option::Option::Some({
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema
                        .indexes[0usize]
                        .sort_template()
                        .expect("the index has a sort key"),
                    __schema
                        .indexes[0usize]
                        .sort_template()
                        .expect("the index has a sort key")
                        .literal_len() + <DateTime<Utc> as ::stamp::KeyPart>::LEN_HINT,
                );
                __builder.field::<DateTime<Utc>>("updated_at", updated_at)?;
                __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
            });
            ::core::result::Result::Ok(
                ::stamp::IndexKey::from_parts(
                    &__schema.indexes[0usize],
                    __partition_key,
                    __sort_key,
                ),
            )
        }
        /**Builds the key of a `Order` in index `GSI2`: `GSI2PK` = `ORDER#<order_id>`, `GSI2SK` = `ORDER`.

# Errors

`stamp::KeyError::EmptyKeyValue` when a field encodes to the empty string; `stamp::KeyError::KeyEncode` when a field has no key encoding.*/
        #[inline]
        pub fn gsi2_key(
            order_id: &Uuid,
        ) -> ::core::result::Result<::stamp::IndexKey<Self>, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema
                        .indexes[1usize]
                        .partition_template()
                        .expect("a template index"),
                    __schema
                        .indexes[1usize]
                        .partition_template()
                        .expect("a template index")
                        .literal_len() + <Uuid as ::stamp::KeyPart>::LEN_HINT,
                );
                __builder.literal("ORDER#");
                __builder.field::<Uuid>("order_id", order_id)?;
                __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
            };
            let __sort_key = ::core::option::Option::Some({
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema
                        .indexes[1usize]
                        .sort_template()
                        .expect("the index has a sort key"),
                    __schema
                        .indexes[1usize]
                        .sort_template()
                        .expect("the index has a sort key")
                        .literal_len(),
                );
                __builder.literal("ORDER");
                __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
            });
            ::core::result::Result::Ok(
                ::stamp::IndexKey::from_parts(
                    &__schema.indexes[1usize],
                    __partition_key,
                    __sort_key,
                ),
            )
        }
        /**A query of `Order` items on the table: `PK = CUST#<customer_id>` and the sort key `SK` within `ORDER#<created_at>#<order_id>`.

Add a sort-key condition with `sort_key_eq`, `sort_key_lt`, `sort_key_between`, … on a leading prefix of the sort-key fields; nothing is sent until `send`, `stream` or `count`.*/
        #[inline]
        pub fn query(customer_id: &str) -> ::stamp::Query<Self, ::stamp::BaseTable> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = (|| -> ::core::result::Result<
                ::std::string::String,
                ::stamp::Error,
            > {
                ::core::result::Result::Ok({
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema.partition_key.template,
                        __schema.partition_key.template.literal_len() + customer_id.len(),
                    );
                    __builder.literal("CUST#");
                    __builder.str_field("customer_id", customer_id)?;
                    __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                })
            })();
            ::stamp::Query::new(__partition_key)
        }
        /**A query of `Order` items on index `GSI1`: `GSI1PK = STATUS#<status>#<shard>` and the sort key `GSI1SK` within `<updated_at>`.

Add a sort-key condition with `sort_key_eq`, `sort_key_lt`, `sort_key_between`, …; nothing is sent until `send`, `stream` or `count`.*/
        #[inline]
        pub fn query_gsi1(
            status: &OrderStatus,
        ) -> ::stamp::Query<Self, ::stamp::Gsi<1u8>> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = (|| -> ::core::result::Result<
                ::std::string::String,
                ::stamp::Error,
            > {
                ::core::result::Result::Ok({
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema
                            .indexes[0usize]
                            .partition_template()
                            .expect("a template index"),
                        __schema
                            .indexes[0usize]
                            .partition_template()
                            .expect("a template index")
                            .literal_len() + <OrderStatus as ::stamp::KeyPart>::LEN_HINT,
                    );
                    __builder.literal("STATUS#");
                    __builder.field::<OrderStatus>("status", status)?;
                    __builder.literal("#");
                    __builder.finish()
                })
            })();
            ::stamp::Query::new(__partition_key)
        }
        /**A query of `Order` items on index `GSI2`: `GSI2PK = ORDER#<order_id>` and the sort key `GSI2SK` within `ORDER`.

Add a sort-key condition with `sort_key_eq`, `sort_key_lt`, `sort_key_between`, …; nothing is sent until `send`, `stream` or `count`.*/
        #[inline]
        pub fn query_gsi2(order_id: &Uuid) -> ::stamp::Query<Self, ::stamp::Gsi<2u8>> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = (|| -> ::core::result::Result<
                ::std::string::String,
                ::stamp::Error,
            > {
                ::core::result::Result::Ok({
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema
                            .indexes[1usize]
                            .partition_template()
                            .expect("a template index"),
                        __schema
                            .indexes[1usize]
                            .partition_template()
                            .expect("a template index")
                            .literal_len() + <Uuid as ::stamp::KeyPart>::LEN_HINT,
                    );
                    __builder.literal("ORDER#");
                    __builder.field::<Uuid>("order_id", order_id)?;
                    __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                })
            })();
            ::stamp::Query::new(__partition_key)
        }
        ///A scan of the table for `Order` items (type attribute `Type` = `Order`): reads every item of the table. Nothing is sent until `stream`.
        #[inline]
        pub fn scan() -> ::stamp::Scan<Self> {
            ::stamp::Scan::new()
        }
        ///An update of the `Order` item with this primary key. Set fields through the attribute constants (`Order::FIELD`); index attributes and `updated_at` are rewritten in the same request. Nothing is sent until `send`.
        #[inline]
        pub fn update(
            customer_id: &str,
            created_at: &DateTime<Utc>,
            order_id: &Uuid,
        ) -> ::stamp::Update<Self> {
            #[allow(unused_mut)]
            let mut __known = ::stamp::AttributeMap::new();
            if let ::core::result::Result::Ok(::core::option::Option::Some(__value)) = __stamp_encode_customer_id(
                &::std::string::String::from(customer_id),
            ) {
                __known.insert(::std::string::String::from("customer_id"), __value);
            }
            if let ::core::result::Result::Ok(::core::option::Option::Some(__value)) = __stamp_encode_created_at(
                created_at,
            ) {
                __known.insert(::std::string::String::from("created_at"), __value);
            }
            if let ::core::result::Result::Ok(::core::option::Option::Some(__value)) = __stamp_encode_order_id(
                order_id,
            ) {
                __known.insert(::std::string::String::from("order_id"), __value);
            }
            ::stamp::Update::new(Self::key(customer_id, created_at, order_id))
                .with_known_values(__known)
        }
        /**A similarity search of vector index `VECTOR2` (`order_embedding`, 64 dimensions, Cosine) of `Order` for the items nearest `vector`, in the partition `VECTOR2PK` = `CUST#<customer_id>`: one `SearchVectors` request, the 10 most similar unless `top_k` says otherwise (1 to 100).

The vector's length, a NaN or an infinity, a zero vector under cosine and `top_k` are checked before sending (`stamp::Error::Refused(Refusal::Vector(…))`); `.filter(|f| …)` names only the index's inline filters (any other attribute does not compile).

See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>.*/
        #[inline]
        pub fn search_similar_vector2(
            customer_id: &str,
            vector: &[f32],
        ) -> ::stamp::SimilaritySearch<Self, ::stamp::Vector<2u8>> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            ::stamp::SimilaritySearch::new(
                &__schema.indexes[2usize],
                (|| -> ::core::result::Result<::std::string::String, ::stamp::Error> {
                    ::core::result::Result::Ok({
                        let mut __builder = ::stamp::__private::KeyBuilder::new(
                            __schema.type_name,
                            &__schema
                                .indexes[2usize]
                                .partition_template()
                                .expect("a vector index partitioned by a template"),
                            __schema
                                .indexes[2usize]
                                .partition_template()
                                .expect("a vector index partitioned by a template")
                                .literal_len() + customer_id.len(),
                        );
                        __builder.literal("CUST#");
                        __builder.str_field("customer_id", customer_id)?;
                        __builder
                            .finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                    })
                })()
                    .map(|__key| ::core::option::Option::Some(
                        ::stamp::aws_sdk_dynamodb::types::AttributeValue::S(__key),
                    )),
                vector,
            )
        }
        /**Parses a `PK` value of `Order` back into its fields (customer_id), following the template `CUST#<customer_id>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_partition_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema
                .partition_key
                .template
                .split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "customer_id",
                    key,
                    &__segments[0usize],
                    <String as ::stamp::KeyPart>::decode_key,
                    <String as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        /**Parses a `SK` value of `Order` back into its fields (created_at, order_id), following the template `ORDER#<created_at>#<order_id>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_sort_key(
            key: &str,
        ) -> ::core::result::Result<(DateTime<Utc>, Uuid), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema.sort_key.template.split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "created_at",
                    key,
                    &__segments[0usize],
                    <DateTime<Utc> as ::stamp::KeyPart>::decode_key,
                    <DateTime<Utc> as ::stamp::KeyPart>::encode_key,
                )?,
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "order_id",
                    key,
                    &__segments[1usize],
                    <Uuid as ::stamp::KeyPart>::decode_key,
                    <Uuid as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        /**Parses a `GSI1PK` value of `Order` back into its fields (status), following the template `STATUS#<status>#<shard>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_gsi1_partition_key(
            key: &str,
        ) -> ::core::result::Result<(OrderStatus,), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema
                .indexes[0usize]
                .partition_template()
                .expect("a template index")
                .split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "status",
                    key,
                    &__segments[0usize],
                    <OrderStatus as ::stamp::KeyPart>::decode_key,
                    <OrderStatus as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        /**Parses a `GSI1SK` value of `Order` back into its fields (updated_at), following the template `<updated_at>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_gsi1_sort_key(
            key: &str,
        ) -> ::core::result::Result<(DateTime<Utc>,), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema
                .indexes[0usize]
                .sort_template()
                .expect("the index has a sort key")
                .split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "updated_at",
                    key,
                    &__segments[0usize],
                    <DateTime<Utc> as ::stamp::KeyPart>::decode_key,
                    <DateTime<Utc> as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        /**Parses a `GSI2PK` value of `Order` back into its fields (order_id), following the template `ORDER#<order_id>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_gsi2_partition_key(
            key: &str,
        ) -> ::core::result::Result<(Uuid,), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema
                .indexes[1usize]
                .partition_template()
                .expect("a template index")
                .split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "order_id",
                    key,
                    &__segments[0usize],
                    <Uuid as ::stamp::KeyPart>::decode_key,
                    <Uuid as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        /**Parses a `GSI2SK` value of `Order` back into its fields (none: the template is a constant), following the template `ORDER`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_gsi2_sort_key(
            key: &str,
        ) -> ::core::result::Result<(), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema
                .indexes[1usize]
                .sort_template()
                .expect("the index has a sort key")
                .split(__schema.type_name, key)?;
            let _ = &__segments;
            ::core::result::Result::Ok(())
        }
        /**Parses a `VECTOR2PK` value of `Order` back into its fields (customer_id), following the template `CUST#<customer_id>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_vector2_partition_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema
                .indexes[2usize]
                .partition_template()
                .expect("a vector index partitioned by a template")
                .split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "customer_id",
                    key,
                    &__segments[0usize],
                    <String as ::stamp::KeyPart>::decode_key,
                    <String as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        ///The `customer_id` attribute of `Order`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const CUSTOMER_ID: ::stamp::Attribute<
            Self,
            String,
            ::stamp::PrimaryKeyField,
        > = ::stamp::Attribute::with_encoder("customer_id", __stamp_encode_customer_id);
        ///The `order_id` attribute of `Order`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const ORDER_ID: ::stamp::Attribute<Self, Uuid, ::stamp::PrimaryKeyField> = ::stamp::Attribute::with_encoder(
            "order_id",
            __stamp_encode_order_id,
        );
        ///The `created_at` attribute of `Order`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const CREATED_AT: ::stamp::Attribute<
            Self,
            DateTime<Utc>,
            ::stamp::PrimaryKeyField,
        > = ::stamp::Attribute::with_encoder("created_at", __stamp_encode_created_at);
        ///The `created_month` attribute of `Order`, for conditions, filters and updates (an update may set it).
        pub const CREATED_MONTH: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "created_month",
            __stamp_encode_created_month,
        );
        ///The `status` attribute of `Order`, for conditions, filters and updates (optional: an update may set or remove it).
        pub const STATUS: ::stamp::Attribute<Self, OrderStatus, ::stamp::Optional> = ::stamp::Attribute::with_encoder(
            "status",
            __stamp_encode_status,
        );
        ///The `updated_at` attribute of `Order`, for conditions, filters and updates (an update may set it).
        pub const UPDATED_AT: ::stamp::Attribute<
            Self,
            DateTime<Utc>,
            ::stamp::Required,
        > = ::stamp::Attribute::with_encoder("updated_at", __stamp_encode_updated_at);
        ///The `total_cents` attribute of `Order`, for conditions, filters and updates (an update may set it).
        pub const TOTAL_CENTS: ::stamp::Attribute<Self, u64, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "total_cents",
            __stamp_encode_total_cents,
        );
        ///The `line_count` attribute of `Order`, for conditions, filters and updates (an update may set it).
        pub const LINE_COUNT: ::stamp::Attribute<Self, u32, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "line_count",
            __stamp_encode_line_count,
        );
        ///The `order_embedding` attribute of `Order`, for conditions, filters and updates (an update may set it).
        pub const EMBEDDING: ::stamp::Attribute<Self, Vec<f32>, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "order_embedding",
            __stamp_encode_embedding,
        );
    }
    #[automatically_derived]
    impl<'__a> ::stamp::SortKeyPrefix<Order, ::stamp::BaseTable>
    for &'__a DateTime<Utc> {
        #[inline]
        fn sort_key_prefix(
            &self,
        ) -> ::core::result::Result<::stamp::SortKeyText, ::stamp::Error> {
            let __schema = <Order as ::stamp::Entity>::SCHEMA;
            let created_at = *self;
            ::core::result::Result::Ok(::stamp::SortKeyText {
                text: {
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema.sort_key.template,
                        __schema.sort_key.template.literal_len()
                            + <DateTime<Utc> as ::stamp::KeyPart>::LEN_HINT,
                    );
                    __builder.literal("ORDER#");
                    __builder.field::<DateTime<Utc>>("created_at", created_at)?;
                    __builder.literal("#");
                    __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
                },
                complete: false,
            })
        }
    }
    #[automatically_derived]
    impl<'__a> ::stamp::SortKeyPrefix<Order, ::stamp::BaseTable>
    for (&'__a DateTime<Utc>, &'__a Uuid) {
        #[inline]
        fn sort_key_prefix(
            &self,
        ) -> ::core::result::Result<::stamp::SortKeyText, ::stamp::Error> {
            let __schema = <Order as ::stamp::Entity>::SCHEMA;
            let (created_at, order_id) = *self;
            ::core::result::Result::Ok(::stamp::SortKeyText {
                text: {
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema.sort_key.template,
                        __schema.sort_key.template.literal_len()
                            + <DateTime<Utc> as ::stamp::KeyPart>::LEN_HINT
                            + <Uuid as ::stamp::KeyPart>::LEN_HINT,
                    );
                    __builder.literal("ORDER#");
                    __builder.field::<DateTime<Utc>>("created_at", created_at)?;
                    __builder.literal("#");
                    __builder.field::<Uuid>("order_id", order_id)?;
                    __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
                },
                complete: true,
            })
        }
    }
    #[automatically_derived]
    impl<'__a> ::stamp::SortKeyPrefix<Order, ::stamp::Gsi<1u8>> for &'__a DateTime<Utc> {
        #[inline]
        fn sort_key_prefix(
            &self,
        ) -> ::core::result::Result<::stamp::SortKeyText, ::stamp::Error> {
            let __schema = <Order as ::stamp::Entity>::SCHEMA;
            let updated_at = *self;
            ::core::result::Result::Ok(::stamp::SortKeyText {
                text: {
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema
                            .indexes[0usize]
                            .sort_template()
                            .expect("the index has a sort key"),
                        __schema
                            .indexes[0usize]
                            .sort_template()
                            .expect("the index has a sort key")
                            .literal_len()
                            + <DateTime<Utc> as ::stamp::KeyPart>::LEN_HINT,
                    );
                    __builder.field::<DateTime<Utc>>("updated_at", updated_at)?;
                    __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
                },
                complete: true,
            })
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
    #[allow(unused_imports)]
    use ::stamp::__private::codec::{
        DecodeBinary as _, DecodeDirect as _, DecodeSerde as _, EncodeBinary as _,
        EncodeDirect as _, EncodeSerde as _, SerdeFormAsStored as _,
        StoreAsSerialized as _, StoreBinary as _, StoreDirect as _,
    };
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_order_id(
        __value: &Uuid,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_line_no(
        __value: &u32,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_sku(
        __value: &String,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_quantity(
        __value: &u32,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_unit_price_cents(
        __value: &u64,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_decode_order_id(
        __stored: ::core::option::Option<&::stamp::__private::AttributeValue>,
    ) -> ::core::result::Result<Uuid, ::stamp::__private::serde_dynamo::Error> {
        (&&&::stamp::__private::codec::Decode::<Uuid>::new())
            .__stamp_decode("order_id", ::stamp::__private::codec::present(__stored))
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_decode_line_no(
        __stored: ::core::option::Option<&::stamp::__private::AttributeValue>,
    ) -> ::core::result::Result<u32, ::stamp::__private::serde_dynamo::Error> {
        (&&&::stamp::__private::codec::Decode::<u32>::new())
            .__stamp_decode("line_no", ::stamp::__private::codec::present(__stored))
    }
    #[automatically_derived]
    impl ::stamp::Entity for LineItem {
        const SCHEMA: &'static ::stamp::EntitySchema = &::stamp::EntitySchema {
            type_name: "LineItem",
            type_attribute: "Type",
            partition_key: ::stamp::KeyAttribute {
                name: "PK",
                template: ::stamp::KeyTemplate {
                    source: "ORDER#<order_id>",
                    segments: &[
                        ::stamp::Segment::Literal("ORDER#"),
                        ::stamp::Segment::Field("order_id"),
                    ],
                    escaped: ::stamp::KeyTemplate::ESCAPED,
                },
            },
            sort_key: ::stamp::KeyAttribute {
                name: "SK",
                template: ::stamp::KeyTemplate {
                    source: "ITEM#<line_no>",
                    segments: &[
                        ::stamp::Segment::Literal("ITEM#"),
                        ::stamp::Segment::Field("line_no"),
                    ],
                    escaped: ::stamp::KeyTemplate::ESCAPED,
                },
            },
            indexes: &[
                ::stamp::IndexSchema {
                    number: 2u8,
                    name: "GSI2",
                    kind: ::stamp::IndexKind::Global {
                        shards: ::core::option::Option::None,
                    },
                    read_method: "query_gsi2",
                    key: ::stamp::IndexKeySchema::Templates {
                        partition_key: ::stamp::KeyAttribute {
                            name: "GSI2PK",
                            template: ::stamp::KeyTemplate {
                                source: "ORDER#<order_id>",
                                segments: &[
                                    ::stamp::Segment::Literal("ORDER#"),
                                    ::stamp::Segment::Field("order_id"),
                                ],
                                escaped: ::stamp::KeyTemplate::ESCAPED,
                            },
                        },
                        sort_key: ::core::option::Option::Some(::stamp::KeyAttribute {
                            name: "GSI2SK",
                            template: ::stamp::KeyTemplate {
                                source: "ITEM#<line_no>",
                                segments: &[
                                    ::stamp::Segment::Literal("ITEM#"),
                                    ::stamp::Segment::Field("line_no"),
                                ],
                                escaped: ::stamp::KeyTemplate::ESCAPED,
                            },
                        }),
                    },
                },
            ],
            fields: &["order_id", "line_no", "sku", "quantity", "unit_price_cents"],
            ttl_attribute: ::core::option::Option::None,
            field_attributes: &[
                ::stamp::FieldAttribute {
                    field: "order_id",
                    attribute: "order_id",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "line_no",
                    attribute: "line_no",
                    optional: false,
                    stored_type: ::core::option::Option::Some("N"),
                },
                ::stamp::FieldAttribute {
                    field: "sku",
                    attribute: "sku",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "quantity",
                    attribute: "quantity",
                    optional: false,
                    stored_type: ::core::option::Option::Some("N"),
                },
                ::stamp::FieldAttribute {
                    field: "unit_price_cents",
                    attribute: "unit_price_cents",
                    optional: false,
                    stored_type: ::core::option::Option::Some("N"),
                },
            ],
            version_attribute: ::core::option::Option::None,
            created_at_attribute: ::core::option::Option::None,
            updated_at_attribute: ::core::option::Option::None,
            previous_key: ::core::option::Option::None,
            key_example: {
                #[inline]
                fn __key_example(
                    __field: &str,
                ) -> ::core::option::Option<::std::string::String> {
                    match __field {
                        "order_id" => {
                            ::stamp::__private::key_example(
                                "order_id",
                                <Uuid as ::stamp::KeyPart>::example,
                                <Uuid as ::stamp::KeyPart>::encode_key,
                            )
                        }
                        "line_no" => {
                            ::stamp::__private::key_example(
                                "line_no",
                                <u32 as ::stamp::KeyPart>::example,
                                <u32 as ::stamp::KeyPart>::encode_key,
                            )
                        }
                        _ => ::core::option::Option::None,
                    }
                }
                __key_example
            },
            named_inputs: &[],
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
        ) -> ::core::result::Result<::stamp::__private::ItemBuilder, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let (__partition_key, __sort_key) = <Self as ::stamp::Entity>::primary_key(
                    self,
                )?
                .into_parts();
            let mut __item = ::stamp::__private::codec::item(__schema, 5usize, __check);
            (&&&::stamp::__private::codec::Field(&self.order_id))
                .__stamp_insert(__schema, &mut __item, "order_id")?;
            (&&&::stamp::__private::codec::Field(&self.line_no))
                .__stamp_insert(__schema, &mut __item, "line_no")?;
            (&&&::stamp::__private::codec::Field(&self.sku))
                .__stamp_insert(__schema, &mut __item, "sku")?;
            (&&&::stamp::__private::codec::Field(&self.quantity))
                .__stamp_insert(__schema, &mut __item, "quantity")?;
            (&&&::stamp::__private::codec::Field(&self.unit_price_cents))
                .__stamp_insert(__schema, &mut __item, "unit_price_cents")?;
            let _ = &__time;
            ::stamp::__private::insert_key_string(&mut __item, "PK", __partition_key);
            ::stamp::__private::insert_key_string(&mut __item, "SK", __sort_key);
            {
                let (__partition_key, __sort_key) = Self::gsi2_key(
                        &self.order_id,
                        &self.line_no,
                    )?
                    .into_parts();
                ::stamp::__private::insert_key_string(
                    &mut __item,
                    "GSI2PK",
                    __partition_key,
                );
                if let ::core::option::Option::Some(__sort_key) = __sort_key {
                    ::stamp::__private::insert_key_string(
                        &mut __item,
                        "GSI2SK",
                        __sort_key,
                    );
                }
            }
            ::stamp::__private::insert_string(
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
            ::stamp::__private::codec::check_type(__schema, &item)?;
            let mut __stamp_field_0: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_1: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_2: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_3: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_4: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            for (__name, __stored) in item {
                match __name.as_str() {
                    "order_id" => {
                        __stamp_field_0 = ::core::option::Option::Some(__stored);
                    }
                    "line_no" => __stamp_field_1 = ::core::option::Option::Some(__stored),
                    "sku" => __stamp_field_2 = ::core::option::Option::Some(__stored),
                    "quantity" => {
                        __stamp_field_3 = ::core::option::Option::Some(__stored);
                    }
                    "unit_price_cents" => {
                        __stamp_field_4 = ::core::option::Option::Some(__stored);
                    }
                    _ => {}
                }
            }
            ::core::result::Result::Ok(Self {
                order_id: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<Uuid>::new())
                        .__stamp_decode("order_id", __stamp_field_0),
                )?,
                line_no: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<u32>::new())
                        .__stamp_decode("line_no", __stamp_field_1),
                )?,
                sku: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<String>::new())
                        .__stamp_decode("sku", __stamp_field_2),
                )?,
                quantity: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<u32>::new())
                        .__stamp_decode("quantity", __stamp_field_3),
                )?,
                unit_price_cents: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<u64>::new())
                        .__stamp_decode("unit_price_cents", __stamp_field_4),
                )?,
            })
        }
        #[inline]
        fn key_attribute_from_values(
            __attribute: &str,
            __values: &::stamp::AttributeMap,
        ) -> ::core::result::Result<
            ::core::option::Option<::std::string::String>,
            ::stamp::Error,
        > {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let _ = (&__schema, &__values);
            match __attribute {
                "GSI2PK" => {
                    let order_id: Uuid = ::stamp::__private::codec::decoded(
                        __schema,
                        __stamp_decode_order_id(__values.get("order_id")),
                    )?;
                    let order_id = &order_id;
                    ::core::result::Result::Ok(
                        ::core::option::Option::Some({
                            let mut __builder = ::stamp::__private::KeyBuilder::new(
                                __schema.type_name,
                                &__schema
                                    .indexes[0usize]
                                    .partition_template()
                                    .expect("a template index"),
                                __schema
                                    .indexes[0usize]
                                    .partition_template()
                                    .expect("a template index")
                                    .literal_len() + <Uuid as ::stamp::KeyPart>::LEN_HINT,
                            );
                            __builder.literal("ORDER#");
                            __builder.field::<Uuid>("order_id", order_id)?;
                            __builder
                                .finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                        }),
                    )
                }
                "GSI2SK" => {
                    let line_no: u32 = ::stamp::__private::codec::decoded(
                        __schema,
                        __stamp_decode_line_no(__values.get("line_no")),
                    )?;
                    let line_no = &line_no;
                    ::core::result::Result::Ok(
                        ::core::option::Option::Some({
                            let mut __builder = ::stamp::__private::KeyBuilder::new(
                                __schema.type_name,
                                &__schema
                                    .indexes[0usize]
                                    .sort_template()
                                    .expect("the index has a sort key"),
                                __schema
                                    .indexes[0usize]
                                    .sort_template()
                                    .expect("the index has a sort key")
                                    .literal_len() + <u32 as ::stamp::KeyPart>::LEN_HINT,
                            );
                            __builder.literal("ITEM#");
                            __builder.field::<u32>("line_no", line_no)?;
                            __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
                        }),
                    )
                }
                _ => ::core::result::Result::Ok(::core::option::Option::None),
            }
        }
    }
    #[automatically_derived]
    impl LineItem {
        /**Builds the primary key of a `LineItem`: `PK` = `ORDER#<order_id>`, `SK` = `ITEM#<line_no>`.

# Errors

`stamp::KeyError::EmptyKeyValue` when a field encodes to the empty string; `stamp::KeyError::KeyEncode` when a field has no key encoding.*/
        #[inline]
        pub fn key(
            order_id: &Uuid,
            line_no: &u32,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema.partition_key.template,
                    __schema.partition_key.template.literal_len()
                        + <Uuid as ::stamp::KeyPart>::LEN_HINT,
                );
                __builder.literal("ORDER#");
                __builder.field::<Uuid>("order_id", order_id)?;
                __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
            };
            let __sort_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema.sort_key.template,
                    __schema.sort_key.template.literal_len()
                        + <u32 as ::stamp::KeyPart>::LEN_HINT,
                );
                __builder.literal("ITEM#");
                __builder.field::<u32>("line_no", line_no)?;
                __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
            };
            ::core::result::Result::Ok(
                ::stamp::PrimaryKey::from_parts(__partition_key, __sort_key),
            )
        }
        /**Builds the key of a `LineItem` in index `GSI2`: `GSI2PK` = `ORDER#<order_id>`, `GSI2SK` = `ITEM#<line_no>`.

# Errors

`stamp::KeyError::EmptyKeyValue` when a field encodes to the empty string; `stamp::KeyError::KeyEncode` when a field has no key encoding.*/
        #[inline]
        pub fn gsi2_key(
            order_id: &Uuid,
            line_no: &u32,
        ) -> ::core::result::Result<::stamp::IndexKey<Self>, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema
                        .indexes[0usize]
                        .partition_template()
                        .expect("a template index"),
                    __schema
                        .indexes[0usize]
                        .partition_template()
                        .expect("a template index")
                        .literal_len() + <Uuid as ::stamp::KeyPart>::LEN_HINT,
                );
                __builder.literal("ORDER#");
                __builder.field::<Uuid>("order_id", order_id)?;
                __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
            };
            let __sort_key = ::core::option::Option::Some({
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema
                        .indexes[0usize]
                        .sort_template()
                        .expect("the index has a sort key"),
                    __schema
                        .indexes[0usize]
                        .sort_template()
                        .expect("the index has a sort key")
                        .literal_len() + <u32 as ::stamp::KeyPart>::LEN_HINT,
                );
                __builder.literal("ITEM#");
                __builder.field::<u32>("line_no", line_no)?;
                __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
            });
            ::core::result::Result::Ok(
                ::stamp::IndexKey::from_parts(
                    &__schema.indexes[0usize],
                    __partition_key,
                    __sort_key,
                ),
            )
        }
        /**A query of `LineItem` items on the table: `PK = ORDER#<order_id>` and the sort key `SK` within `ITEM#<line_no>`.

Add a sort-key condition with `sort_key_eq`, `sort_key_lt`, `sort_key_between`, … on a leading prefix of the sort-key fields; nothing is sent until `send`, `stream` or `count`.*/
        #[inline]
        pub fn query(order_id: &Uuid) -> ::stamp::Query<Self, ::stamp::BaseTable> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = (|| -> ::core::result::Result<
                ::std::string::String,
                ::stamp::Error,
            > {
                ::core::result::Result::Ok({
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema.partition_key.template,
                        __schema.partition_key.template.literal_len()
                            + <Uuid as ::stamp::KeyPart>::LEN_HINT,
                    );
                    __builder.literal("ORDER#");
                    __builder.field::<Uuid>("order_id", order_id)?;
                    __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                })
            })();
            ::stamp::Query::new(__partition_key)
        }
        /**A query of `LineItem` items on index `GSI2`: `GSI2PK = ORDER#<order_id>` and the sort key `GSI2SK` within `ITEM#<line_no>`.

Add a sort-key condition with `sort_key_eq`, `sort_key_lt`, `sort_key_between`, …; nothing is sent until `send`, `stream` or `count`.*/
        #[inline]
        pub fn query_gsi2(order_id: &Uuid) -> ::stamp::Query<Self, ::stamp::Gsi<2u8>> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = (|| -> ::core::result::Result<
                ::std::string::String,
                ::stamp::Error,
            > {
                ::core::result::Result::Ok({
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema
                            .indexes[0usize]
                            .partition_template()
                            .expect("a template index"),
                        __schema
                            .indexes[0usize]
                            .partition_template()
                            .expect("a template index")
                            .literal_len() + <Uuid as ::stamp::KeyPart>::LEN_HINT,
                    );
                    __builder.literal("ORDER#");
                    __builder.field::<Uuid>("order_id", order_id)?;
                    __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                })
            })();
            ::stamp::Query::new(__partition_key)
        }
        ///A scan of the table for `LineItem` items (type attribute `Type` = `LineItem`): reads every item of the table. Nothing is sent until `stream`.
        #[inline]
        pub fn scan() -> ::stamp::Scan<Self> {
            ::stamp::Scan::new()
        }
        ///An update of the `LineItem` item with this primary key. Set fields through the attribute constants (`LineItem::FIELD`); index attributes and `updated_at` are rewritten in the same request. Nothing is sent until `send`.
        #[inline]
        pub fn update(order_id: &Uuid, line_no: &u32) -> ::stamp::Update<Self> {
            #[allow(unused_mut)]
            let mut __known = ::stamp::AttributeMap::new();
            if let ::core::result::Result::Ok(::core::option::Option::Some(__value)) = __stamp_encode_order_id(
                order_id,
            ) {
                __known.insert(::std::string::String::from("order_id"), __value);
            }
            if let ::core::result::Result::Ok(::core::option::Option::Some(__value)) = __stamp_encode_line_no(
                line_no,
            ) {
                __known.insert(::std::string::String::from("line_no"), __value);
            }
            ::stamp::Update::new(Self::key(order_id, line_no)).with_known_values(__known)
        }
        /**Parses a `PK` value of `LineItem` back into its fields (order_id), following the template `ORDER#<order_id>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_partition_key(
            key: &str,
        ) -> ::core::result::Result<(Uuid,), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema
                .partition_key
                .template
                .split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "order_id",
                    key,
                    &__segments[0usize],
                    <Uuid as ::stamp::KeyPart>::decode_key,
                    <Uuid as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        /**Parses a `SK` value of `LineItem` back into its fields (line_no), following the template `ITEM#<line_no>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_sort_key(
            key: &str,
        ) -> ::core::result::Result<(u32,), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema.sort_key.template.split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "line_no",
                    key,
                    &__segments[0usize],
                    <u32 as ::stamp::KeyPart>::decode_key,
                    <u32 as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        /**Parses a `GSI2PK` value of `LineItem` back into its fields (order_id), following the template `ORDER#<order_id>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_gsi2_partition_key(
            key: &str,
        ) -> ::core::result::Result<(Uuid,), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema
                .indexes[0usize]
                .partition_template()
                .expect("a template index")
                .split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "order_id",
                    key,
                    &__segments[0usize],
                    <Uuid as ::stamp::KeyPart>::decode_key,
                    <Uuid as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        /**Parses a `GSI2SK` value of `LineItem` back into its fields (line_no), following the template `ITEM#<line_no>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_gsi2_sort_key(
            key: &str,
        ) -> ::core::result::Result<(u32,), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema
                .indexes[0usize]
                .sort_template()
                .expect("the index has a sort key")
                .split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "line_no",
                    key,
                    &__segments[0usize],
                    <u32 as ::stamp::KeyPart>::decode_key,
                    <u32 as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        ///The `order_id` attribute of `LineItem`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const ORDER_ID: ::stamp::Attribute<Self, Uuid, ::stamp::PrimaryKeyField> = ::stamp::Attribute::with_encoder(
            "order_id",
            __stamp_encode_order_id,
        );
        ///The `line_no` attribute of `LineItem`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const LINE_NO: ::stamp::Attribute<Self, u32, ::stamp::PrimaryKeyField> = ::stamp::Attribute::with_encoder(
            "line_no",
            __stamp_encode_line_no,
        );
        ///The `sku` attribute of `LineItem`, for conditions, filters and updates (an update may set it).
        pub const SKU: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "sku",
            __stamp_encode_sku,
        );
        ///The `quantity` attribute of `LineItem`, for conditions, filters and updates (an update may set it).
        pub const QUANTITY: ::stamp::Attribute<Self, u32, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "quantity",
            __stamp_encode_quantity,
        );
        ///The `unit_price_cents` attribute of `LineItem`, for conditions, filters and updates (an update may set it).
        pub const UNIT_PRICE_CENTS: ::stamp::Attribute<Self, u64, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "unit_price_cents",
            __stamp_encode_unit_price_cents,
        );
    }
    #[automatically_derived]
    impl<'__a> ::stamp::SortKeyPrefix<LineItem, ::stamp::BaseTable> for &'__a u32 {
        #[inline]
        fn sort_key_prefix(
            &self,
        ) -> ::core::result::Result<::stamp::SortKeyText, ::stamp::Error> {
            let __schema = <LineItem as ::stamp::Entity>::SCHEMA;
            let line_no = *self;
            ::core::result::Result::Ok(::stamp::SortKeyText {
                text: {
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema.sort_key.template,
                        __schema.sort_key.template.literal_len()
                            + <u32 as ::stamp::KeyPart>::LEN_HINT,
                    );
                    __builder.literal("ITEM#");
                    __builder.field::<u32>("line_no", line_no)?;
                    __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
                },
                complete: true,
            })
        }
    }
    #[automatically_derived]
    impl<'__a> ::stamp::SortKeyPrefix<LineItem, ::stamp::Gsi<2u8>> for &'__a u32 {
        #[inline]
        fn sort_key_prefix(
            &self,
        ) -> ::core::result::Result<::stamp::SortKeyText, ::stamp::Error> {
            let __schema = <LineItem as ::stamp::Entity>::SCHEMA;
            let line_no = *self;
            ::core::result::Result::Ok(::stamp::SortKeyText {
                text: {
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema
                            .indexes[0usize]
                            .sort_template()
                            .expect("the index has a sort key"),
                        __schema
                            .indexes[0usize]
                            .sort_template()
                            .expect("the index has a sort key")
                            .literal_len() + <u32 as ::stamp::KeyPart>::LEN_HINT,
                    );
                    __builder.literal("ITEM#");
                    __builder.field::<u32>("line_no", line_no)?;
                    __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
                },
                complete: true,
            })
        }
    }
};

// #[derive(Item)] Product
const _: () = {
    #[allow(unused_imports)]
    use ::stamp::__private::codec::{
        DecodeBinary as _, DecodeDirect as _, DecodeSerde as _, EncodeBinary as _,
        EncodeDirect as _, EncodeSerde as _, SerdeFormAsStored as _,
        StoreAsSerialized as _, StoreBinary as _, StoreDirect as _,
    };
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_sku(
        __value: &String,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_name(
        __value: &String,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_category(
        __value: &String,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_price_cents(
        __value: &u64,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_stock(
        __value: &u32,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_embedding(
        __value: &Vec<f32>,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[automatically_derived]
    impl ::stamp::Entity for Product {
        const SCHEMA: &'static ::stamp::EntitySchema = &::stamp::EntitySchema {
            type_name: "Product",
            type_attribute: "Type",
            partition_key: ::stamp::KeyAttribute {
                name: "PK",
                template: ::stamp::KeyTemplate {
                    source: "PRODUCT#<sku>",
                    segments: &[
                        ::stamp::Segment::Literal("PRODUCT#"),
                        ::stamp::Segment::Field("sku"),
                    ],
                    escaped: ::stamp::KeyTemplate::ESCAPED,
                },
            },
            sort_key: ::stamp::KeyAttribute {
                name: "SK",
                template: ::stamp::KeyTemplate {
                    source: "PRODUCT",
                    segments: &[::stamp::Segment::Literal("PRODUCT")],
                    escaped: ::stamp::KeyTemplate::ESCAPED,
                },
            },
            indexes: &[
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
            fields: &["sku", "name", "category", "price_cents", "stock", "embedding"],
            ttl_attribute: ::core::option::Option::None,
            field_attributes: &[
                ::stamp::FieldAttribute {
                    field: "sku",
                    attribute: "sku",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "name",
                    attribute: "name",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "category",
                    attribute: "category",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "price_cents",
                    attribute: "price_cents",
                    optional: false,
                    stored_type: ::core::option::Option::Some("N"),
                },
                ::stamp::FieldAttribute {
                    field: "stock",
                    attribute: "stock",
                    optional: false,
                    stored_type: ::core::option::Option::Some("N"),
                },
                ::stamp::FieldAttribute {
                    field: "embedding",
                    attribute: "embedding",
                    optional: false,
                    stored_type: ::core::option::Option::Some("L"),
                },
            ],
            version_attribute: ::core::option::Option::None,
            created_at_attribute: ::core::option::Option::None,
            updated_at_attribute: ::core::option::Option::None,
            previous_key: ::core::option::Option::None,
            key_example: {
                #[inline]
                fn __key_example(
                    __field: &str,
                ) -> ::core::option::Option<::std::string::String> {
                    match __field {
                        "sku" => {
                            ::stamp::__private::key_example(
                                "sku",
                                <String as ::stamp::KeyPart>::example,
                                <String as ::stamp::KeyPart>::encode_key,
                            )
                        }
                        _ => ::core::option::Option::None,
                    }
                }
                __key_example
            },
            named_inputs: &[],
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
        ) -> ::core::result::Result<::stamp::__private::ItemBuilder, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let (__partition_key, __sort_key) = <Self as ::stamp::Entity>::primary_key(
                    self,
                )?
                .into_parts();
            let mut __item = ::stamp::__private::codec::item(__schema, 6usize, __check);
            (&&&::stamp::__private::codec::Field(&self.sku))
                .__stamp_insert(__schema, &mut __item, "sku")?;
            (&&&::stamp::__private::codec::Field(&self.name))
                .__stamp_insert(__schema, &mut __item, "name")?;
            (&&&::stamp::__private::codec::Field(&self.category))
                .__stamp_insert(__schema, &mut __item, "category")?;
            (&&&::stamp::__private::codec::Field(&self.price_cents))
                .__stamp_insert(__schema, &mut __item, "price_cents")?;
            (&&&::stamp::__private::codec::Field(&self.stock))
                .__stamp_insert(__schema, &mut __item, "stock")?;
            (&&&::stamp::__private::codec::Field(&self.embedding))
                .__stamp_insert(__schema, &mut __item, "embedding")?;
            let _ = &__time;
            ::stamp::__private::insert_key_string(&mut __item, "PK", __partition_key);
            ::stamp::__private::insert_key_string(&mut __item, "SK", __sort_key);
            if ::stamp::__private::check_vector_attribute(
                __schema,
                &__schema.indexes[0usize],
                &__item,
            )? {}
            ::stamp::__private::insert_string(
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
            ::stamp::__private::codec::check_type(__schema, &item)?;
            let mut __stamp_field_0: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_1: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_2: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_3: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_4: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_5: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            for (__name, __stored) in item {
                match __name.as_str() {
                    "sku" => __stamp_field_0 = ::core::option::Option::Some(__stored),
                    "name" => __stamp_field_1 = ::core::option::Option::Some(__stored),
                    "category" => {
                        __stamp_field_2 = ::core::option::Option::Some(__stored);
                    }
                    "price_cents" => {
                        __stamp_field_3 = ::core::option::Option::Some(__stored);
                    }
                    "stock" => __stamp_field_4 = ::core::option::Option::Some(__stored),
                    "embedding" => {
                        __stamp_field_5 = ::core::option::Option::Some(__stored);
                    }
                    _ => {}
                }
            }
            ::core::result::Result::Ok(Self {
                sku: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<String>::new())
                        .__stamp_decode("sku", __stamp_field_0),
                )?,
                name: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<String>::new())
                        .__stamp_decode("name", __stamp_field_1),
                )?,
                category: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<String>::new())
                        .__stamp_decode("category", __stamp_field_2),
                )?,
                price_cents: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<u64>::new())
                        .__stamp_decode("price_cents", __stamp_field_3),
                )?,
                stock: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<u32>::new())
                        .__stamp_decode("stock", __stamp_field_4),
                )?,
                embedding: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<Vec<f32>>::new())
                        .__stamp_decode("embedding", __stamp_field_5),
                )?,
            })
        }
        #[inline]
        fn key_attribute_from_values(
            __attribute: &str,
            __values: &::stamp::AttributeMap,
        ) -> ::core::result::Result<
            ::core::option::Option<::std::string::String>,
            ::stamp::Error,
        > {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let _ = (&__schema, &__values);
            match __attribute {
                _ => ::core::result::Result::Ok(::core::option::Option::None),
            }
        }
    }
    #[automatically_derived]
    impl Product {
        /**Builds the primary key of a `Product`: `PK` = `PRODUCT#<sku>`, `SK` = `PRODUCT`.

# Errors

`stamp::KeyError::EmptyKeyValue` when a field encodes to the empty string; `stamp::KeyError::KeyEncode` when a field has no key encoding.*/
        #[inline]
        pub fn key(
            sku: &str,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema.partition_key.template,
                    __schema.partition_key.template.literal_len() + sku.len(),
                );
                __builder.literal("PRODUCT#");
                __builder.str_field("sku", sku)?;
                __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
            };
            let __sort_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema.sort_key.template,
                    __schema.sort_key.template.literal_len(),
                );
                __builder.literal("PRODUCT");
                __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
            };
            ::core::result::Result::Ok(
                ::stamp::PrimaryKey::from_parts(__partition_key, __sort_key),
            )
        }
        /**A query of `Product` items on the table: `PK = PRODUCT#<sku>` and the sort key `SK` within `PRODUCT`.

Add a sort-key condition with `sort_key_eq`, `sort_key_lt`, `sort_key_between`, … on a leading prefix of the sort-key fields; nothing is sent until `send`, `stream` or `count`.*/
        #[inline]
        pub fn query(sku: &str) -> ::stamp::Query<Self, ::stamp::BaseTable> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = (|| -> ::core::result::Result<
                ::std::string::String,
                ::stamp::Error,
            > {
                ::core::result::Result::Ok({
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema.partition_key.template,
                        __schema.partition_key.template.literal_len() + sku.len(),
                    );
                    __builder.literal("PRODUCT#");
                    __builder.str_field("sku", sku)?;
                    __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                })
            })();
            ::stamp::Query::new(__partition_key)
        }
        ///A scan of the table for `Product` items (type attribute `Type` = `Product`): reads every item of the table. Nothing is sent until `stream`.
        #[inline]
        pub fn scan() -> ::stamp::Scan<Self> {
            ::stamp::Scan::new()
        }
        ///An update of the `Product` item with this primary key. Set fields through the attribute constants (`Product::FIELD`); index attributes and `updated_at` are rewritten in the same request. Nothing is sent until `send`.
        #[inline]
        pub fn update(sku: &str) -> ::stamp::Update<Self> {
            #[allow(unused_mut)]
            let mut __known = ::stamp::AttributeMap::new();
            if let ::core::result::Result::Ok(::core::option::Option::Some(__value)) = __stamp_encode_sku(
                &::std::string::String::from(sku),
            ) {
                __known.insert(::std::string::String::from("sku"), __value);
            }
            ::stamp::Update::new(Self::key(sku)).with_known_values(__known)
        }
        /**A similarity search of vector index `VECTOR1` (`embedding`, 64 dimensions, Cosine) of `Product` for the items nearest `vector`, across the whole index: one `SearchVectors` request, the 10 most similar unless `top_k` says otherwise (1 to 100).

The vector's length, a NaN or an infinity, a zero vector under cosine and `top_k` are checked before sending (`stamp::Error::Refused(Refusal::Vector(…))`); `.filter(|f| …)` names only the index's inline filters (any other attribute does not compile).

See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>.*/
        #[inline]
        pub fn search_similar_vector1(
            vector: &[f32],
        ) -> ::stamp::SimilaritySearch<Self, ::stamp::Vector<1u8>> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            ::stamp::SimilaritySearch::new(
                &__schema.indexes[0usize],
                ::core::result::Result::Ok(::core::option::Option::None),
                vector,
            )
        }
        /**A similarity search of vector index `VECTOR1` (`embedding`, 64 dimensions, Cosine) of `Product` for the items nearest `vector`, across the whole index: one `SearchVectors` request, the 10 most similar unless `top_k` says otherwise (1 to 100).

The vector's length, a NaN or an infinity, a zero vector under cosine and `top_k` are checked before sending (`stamp::Error::Refused(Refusal::Vector(…))`); `.filter(|f| …)` names only the index's inline filters (any other attribute does not compile).

See <https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_SearchVectors.html>.*/
        #[inline]
        pub fn search_similar(
            vector: &[f32],
        ) -> ::stamp::SimilaritySearch<Self, ::stamp::Vector<1u8>> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            ::stamp::SimilaritySearch::new(
                &__schema.indexes[0usize],
                ::core::result::Result::Ok(::core::option::Option::None),
                vector,
            )
        }
        /**Parses a `PK` value of `Product` back into its fields (sku), following the template `PRODUCT#<sku>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_partition_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema
                .partition_key
                .template
                .split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "sku",
                    key,
                    &__segments[0usize],
                    <String as ::stamp::KeyPart>::decode_key,
                    <String as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        /**Parses a `SK` value of `Product` back into its fields (none: the template is a constant), following the template `PRODUCT`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_sort_key(key: &str) -> ::core::result::Result<(), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema.sort_key.template.split(__schema.type_name, key)?;
            let _ = &__segments;
            ::core::result::Result::Ok(())
        }
        ///The `sku` attribute of `Product`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const SKU: ::stamp::Attribute<Self, String, ::stamp::PrimaryKeyField> = ::stamp::Attribute::with_encoder(
            "sku",
            __stamp_encode_sku,
        );
        ///The `name` attribute of `Product`, for conditions, filters and updates (an update may set it).
        pub const NAME: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "name",
            __stamp_encode_name,
        );
        ///The `category` attribute of `Product`, for conditions, filters and updates (an update may set it).
        pub const CATEGORY: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "category",
            __stamp_encode_category,
        );
        ///The `price_cents` attribute of `Product`, for conditions, filters and updates (an update may set it).
        pub const PRICE_CENTS: ::stamp::Attribute<Self, u64, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "price_cents",
            __stamp_encode_price_cents,
        );
        ///The `stock` attribute of `Product`, for conditions, filters and updates (an update may set it).
        pub const STOCK: ::stamp::Attribute<Self, u32, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "stock",
            __stamp_encode_stock,
        );
        ///The `embedding` attribute of `Product`, for conditions, filters and updates (an update may set it).
        pub const EMBEDDING: ::stamp::Attribute<Self, Vec<f32>, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "embedding",
            __stamp_encode_embedding,
        );
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

// #[derive(Item)] Session
const _: () = {
    #[allow(unused_imports)]
    use ::stamp::__private::codec::{
        DecodeBinary as _, DecodeDirect as _, DecodeSerde as _, EncodeBinary as _,
        EncodeDirect as _, EncodeSerde as _, SerdeFormAsStored as _,
        StoreAsSerialized as _, StoreBinary as _, StoreDirect as _,
    };
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_token(
        __value: &String,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_customer_id(
        __value: &String,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::stamp::__private::codec::stored(
            (&&&::stamp::__private::codec::Field(__value)).__stamp_encode(),
        )
    }
    #[allow(non_snake_case)]
    #[inline]
    fn __stamp_encode_expires_at(
        __value: &DateTime<Utc>,
    ) -> ::core::result::Result<
        ::core::option::Option<::stamp::__private::AttributeValue>,
        ::stamp::__private::serde_dynamo::Error,
    > {
        ::core::result::Result::Ok(
            ::core::option::Option::Some(
                ::stamp::__private::AttributeValue::N(
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
            partition_key: ::stamp::KeyAttribute {
                name: "PK",
                template: ::stamp::KeyTemplate {
                    source: "SESSION#<token>",
                    segments: &[
                        ::stamp::Segment::Literal("SESSION#"),
                        ::stamp::Segment::Field("token"),
                    ],
                    escaped: ::stamp::KeyTemplate::ESCAPED,
                },
            },
            sort_key: ::stamp::KeyAttribute {
                name: "SK",
                template: ::stamp::KeyTemplate {
                    source: "SESSION",
                    segments: &[::stamp::Segment::Literal("SESSION")],
                    escaped: ::stamp::KeyTemplate::ESCAPED,
                },
            },
            indexes: &[],
            fields: &["token", "customer_id", "expires_at"],
            ttl_attribute: ::core::option::Option::Some("expires_at"),
            field_attributes: &[
                ::stamp::FieldAttribute {
                    field: "token",
                    attribute: "token",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "customer_id",
                    attribute: "customer_id",
                    optional: false,
                    stored_type: ::core::option::Option::Some("S"),
                },
                ::stamp::FieldAttribute {
                    field: "expires_at",
                    attribute: "expires_at",
                    optional: false,
                    stored_type: ::core::option::Option::Some("N"),
                },
            ],
            version_attribute: ::core::option::Option::None,
            created_at_attribute: ::core::option::Option::None,
            updated_at_attribute: ::core::option::Option::None,
            previous_key: ::core::option::Option::None,
            key_example: {
                #[inline]
                fn __key_example(
                    __field: &str,
                ) -> ::core::option::Option<::std::string::String> {
                    match __field {
                        "token" => {
                            ::stamp::__private::key_example(
                                "token",
                                <String as ::stamp::KeyPart>::example,
                                <String as ::stamp::KeyPart>::encode_key,
                            )
                        }
                        _ => ::core::option::Option::None,
                    }
                }
                __key_example
            },
            named_inputs: &[],
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
        ) -> ::core::result::Result<::stamp::__private::ItemBuilder, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let (__partition_key, __sort_key) = <Self as ::stamp::Entity>::primary_key(
                    self,
                )?
                .into_parts();
            let mut __item = ::stamp::__private::codec::item(__schema, 2usize, __check);
            (&&&::stamp::__private::codec::Field(&self.token))
                .__stamp_insert(__schema, &mut __item, "token")?;
            (&&&::stamp::__private::codec::Field(&self.customer_id))
                .__stamp_insert(__schema, &mut __item, "customer_id")?;
            let _ = &__time;
            ::stamp::__private::insert_key_string(&mut __item, "PK", __partition_key);
            ::stamp::__private::insert_key_string(&mut __item, "SK", __sort_key);
            ::stamp::__private::store_time_to_live(
                &mut __item,
                "expires_at",
                ::core::option::Option::Some(&self.expires_at),
                <DateTime<Utc> as ::stamp::TimeToLive>::epoch_seconds,
            );
            ::stamp::__private::insert_string(
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
            ::stamp::__private::load_time_to_live(
                <Self as ::stamp::Entity>::SCHEMA,
                &mut item,
                "expires_at",
                <DateTime<Utc> as ::stamp::TimeToLive>::from_epoch_seconds,
            )?;
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            ::stamp::__private::codec::check_type(__schema, &item)?;
            let mut __stamp_field_0: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_1: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            let mut __stamp_field_2: ::core::option::Option<
                ::stamp::__private::AttributeValue,
            > = ::core::option::Option::None;
            for (__name, __stored) in item {
                match __name.as_str() {
                    "token" => __stamp_field_0 = ::core::option::Option::Some(__stored),
                    "customer_id" => {
                        __stamp_field_1 = ::core::option::Option::Some(__stored);
                    }
                    "expires_at" => {
                        __stamp_field_2 = ::core::option::Option::Some(__stored);
                    }
                    _ => {}
                }
            }
            ::core::result::Result::Ok(Self {
                token: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<String>::new())
                        .__stamp_decode("token", __stamp_field_0),
                )?,
                customer_id: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<String>::new())
                        .__stamp_decode("customer_id", __stamp_field_1),
                )?,
                expires_at: ::stamp::__private::codec::decoded(
                    __schema,
                    (&&&::stamp::__private::codec::Decode::<DateTime<Utc>>::new())
                        .__stamp_decode("expires_at", __stamp_field_2),
                )?,
            })
        }
        #[inline]
        fn key_attribute_from_values(
            __attribute: &str,
            __values: &::stamp::AttributeMap,
        ) -> ::core::result::Result<
            ::core::option::Option<::std::string::String>,
            ::stamp::Error,
        > {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let _ = (&__schema, &__values);
            match __attribute {
                _ => ::core::result::Result::Ok(::core::option::Option::None),
            }
        }
    }
    #[automatically_derived]
    impl Session {
        /**Builds the primary key of a `Session`: `PK` = `SESSION#<token>`, `SK` = `SESSION`.

# Errors

`stamp::KeyError::EmptyKeyValue` when a field encodes to the empty string; `stamp::KeyError::KeyEncode` when a field has no key encoding.*/
        #[inline]
        pub fn key(
            token: &str,
        ) -> ::core::result::Result<::stamp::PrimaryKey<Self>, ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema.partition_key.template,
                    __schema.partition_key.template.literal_len() + token.len(),
                );
                __builder.literal("SESSION#");
                __builder.str_field("token", token)?;
                __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
            };
            let __sort_key = {
                let mut __builder = ::stamp::__private::KeyBuilder::new(
                    __schema.type_name,
                    &__schema.sort_key.template,
                    __schema.sort_key.template.literal_len(),
                );
                __builder.literal("SESSION");
                __builder.finish_within(::stamp::limits::MAX_SORT_KEY_BYTES)?
            };
            ::core::result::Result::Ok(
                ::stamp::PrimaryKey::from_parts(__partition_key, __sort_key),
            )
        }
        /**A query of `Session` items on the table: `PK = SESSION#<token>` and the sort key `SK` within `SESSION`.

Add a sort-key condition with `sort_key_eq`, `sort_key_lt`, `sort_key_between`, … on a leading prefix of the sort-key fields; nothing is sent until `send`, `stream` or `count`.*/
        #[inline]
        pub fn query(token: &str) -> ::stamp::Query<Self, ::stamp::BaseTable> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __partition_key = (|| -> ::core::result::Result<
                ::std::string::String,
                ::stamp::Error,
            > {
                ::core::result::Result::Ok({
                    let mut __builder = ::stamp::__private::KeyBuilder::new(
                        __schema.type_name,
                        &__schema.partition_key.template,
                        __schema.partition_key.template.literal_len() + token.len(),
                    );
                    __builder.literal("SESSION#");
                    __builder.str_field("token", token)?;
                    __builder.finish_within(::stamp::limits::MAX_PARTITION_KEY_BYTES)?
                })
            })();
            ::stamp::Query::new(__partition_key)
        }
        ///A scan of the table for `Session` items (type attribute `Type` = `Session`): reads every item of the table. Nothing is sent until `stream`.
        #[inline]
        pub fn scan() -> ::stamp::Scan<Self> {
            ::stamp::Scan::new()
        }
        ///An update of the `Session` item with this primary key. Set fields through the attribute constants (`Session::FIELD`); index attributes and `updated_at` are rewritten in the same request. Nothing is sent until `send`.
        #[inline]
        pub fn update(token: &str) -> ::stamp::Update<Self> {
            #[allow(unused_mut)]
            let mut __known = ::stamp::AttributeMap::new();
            if let ::core::result::Result::Ok(::core::option::Option::Some(__value)) = __stamp_encode_token(
                &::std::string::String::from(token),
            ) {
                __known.insert(::std::string::String::from("token"), __value);
            }
            ::stamp::Update::new(Self::key(token)).with_known_values(__known)
        }
        /**Parses a `PK` value of `Session` back into its fields (token), following the template `SESSION#<token>`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_partition_key(
            key: &str,
        ) -> ::core::result::Result<(String,), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema
                .partition_key
                .template
                .split(__schema.type_name, key)?;
            ::core::result::Result::Ok((
                ::stamp::__private::decode_key_segment(
                    __schema.type_name,
                    "token",
                    key,
                    &__segments[0usize],
                    <String as ::stamp::KeyPart>::decode_key,
                    <String as ::stamp::KeyPart>::encode_key,
                )?,
            ))
        }
        /**Parses a `SK` value of `Session` back into its fields (none: the template is a constant), following the template `SESSION`.

# Errors

`stamp::KeyError::KeyMismatch` when the value does not have the template's shape; `stamp::KeyError::KeyDecode` when a field segment is not a valid encoding of its type.*/
        #[inline]
        pub fn parse_sort_key(key: &str) -> ::core::result::Result<(), ::stamp::Error> {
            let __schema = <Self as ::stamp::Entity>::SCHEMA;
            let __segments = __schema.sort_key.template.split(__schema.type_name, key)?;
            let _ = &__segments;
            ::core::result::Result::Ok(())
        }
        ///The `token` attribute of `Session`, for conditions, filters and updates (a primary-key field: conditions only, no update).
        pub const TOKEN: ::stamp::Attribute<Self, String, ::stamp::PrimaryKeyField> = ::stamp::Attribute::with_encoder(
            "token",
            __stamp_encode_token,
        );
        ///The `customer_id` attribute of `Session`, for conditions, filters and updates (an update may set it).
        pub const CUSTOMER_ID: ::stamp::Attribute<Self, String, ::stamp::Required> = ::stamp::Attribute::with_encoder(
            "customer_id",
            __stamp_encode_customer_id,
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

